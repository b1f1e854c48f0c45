package dev.weir.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ExecutorThreadsTest {

    private static WeirSettings settings(OptionalInt global, QueueSettings... queues) {
        return new WeirSettings(List.of(queues), global, Duration.ofSeconds(10), Duration.ofSeconds(60),
                Duration.ofSeconds(30), false);
    }

    private static QueueSettings queue(String name, int maxWorkers) {
        return QueueSettings.defaults(name).withMaxWorkers(maxWorkers);
    }

    @Test
    void hardReservedQueuesMayRunTheSumOfTheirWorkers() {
        WeirSettings s = settings(OptionalInt.empty(), queue("a", 100), queue("b", 4), queue("c", 8));
        assertEquals(112, ExecutorThreads.jobsAtOnce(s));
        assertEquals(112 + ExecutorThreads.FOR_REQUESTS, ExecutorThreads.wanted(s));
    }

    @Test
    void weightedQueuesMayRunTheGlobalBudget() {
        WeirSettings s = settings(OptionalInt.of(30), queue("a", 100), queue("b", 100));
        assertEquals(30, ExecutorThreads.jobsAtOnce(s));
    }

    @Test
    void theDefaultsOfOneQueueFitTheShippedPool() {
        // server.xml's default for the variable is 140: one queue of the default 100 workers, and the requests' 40.
        WeirSettings s = settings(OptionalInt.empty(), QueueSettings.defaults("default"));
        assertEquals(Optional.empty(), ExecutorThreads.advice(s, 140));
        assertTrue(ExecutorThreads.advice(s, 139).isPresent());
    }

    @Test
    void theAdviceNamesTheJobsTheThreadsAndTheVariable() {
        WeirSettings s = settings(OptionalInt.empty(), queue("a", 100), queue("b", 100));
        String advice = ExecutorThreads.advice(s, 40).orElseThrow();
        assertTrue(advice.contains("may run 200 jobs at once"), advice);
        assertTrue(advice.contains("keeps only 40 threads (WEIR_EXECUTOR_CORE_THREADS)"), advice);
        assertTrue(advice.contains("to at least 240"), advice);
    }

    @Test
    void aValueThatIsNotAWholeNumberIsNone() {
        assertEquals(OptionalInt.of(140), ExecutorThreads.parse(Optional.of(" 140 ")));
        assertEquals(OptionalInt.empty(), ExecutorThreads.parse(Optional.of("many")));
        assertEquals(OptionalInt.empty(), ExecutorThreads.parse(Optional.empty()));
    }
}
