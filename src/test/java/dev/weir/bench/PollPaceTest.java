package dev.weir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PollPaceTest {

    @Test
    void aCheapPollWaitsTheShortestTime() {
        assertEquals(250, PollPace.afterPoll(0));
        assertEquals(250, PollPace.afterPoll(2_000_000)); // 2 ms: 38 ms scaled, below the floor
        assertEquals(250, PollPace.afterPoll(13_157_894)); // just under 250 ms scaled
    }

    @Test
    void aCostlyPollWaitsNineteenTimesItsOwnDurationSoPollingTakesAtMostATwentieth() {
        assertEquals(1900, PollPace.afterPoll(100_000_000)); // 100 ms
        long poll = 180_000_000; // 180 ms: the count of a 200,000-job backlog
        long wait = PollPace.afterPoll(poll);
        assertEquals(3420, wait);
        assertEquals(0.05, poll / 1e6 / (poll / 1e6 + wait), 1e-9);
    }

    @Test
    void theWaitIsCappedSoTheEndOfADrainIsSeenWithinSeconds() {
        assertEquals(4000, PollPace.afterPoll(1_000_000_000)); // a poll of a second
        assertEquals(4000, PollPace.afterPoll(Long.MAX_VALUE / 100));
    }
}
