package dev.weir.dispatch;

/**
 * How an instance's attempts are spread over its completer lanes, and which part of a queue each lane claims from
 * (ADR 0032). Pure arithmetic on what the lanes carry (attempts started or claimed, outcome not yet handed to the
 * lane), so it is tested alone.
 *
 * <p><b>Filling.</b> A lane's turn has a fixed cost, whatever its size, of about what 8 to 17 of its jobs cost, so
 * lanes are filled one after another, each to {@code fill} attempts, and a second lane opens only when the first is
 * full: up to {@code fill} attempts in flight, everything goes through one lane, with the batches one lane had before
 * lanes existed. A claim goes whole to a lane that has room for it, one that already carries its queue first, so
 * that its queue stays on one lane. What is left when every lane is full goes, one attempt at a time, to the least
 * loaded lane.
 *
 * <p><b>Parts.</b> Two lanes renewing the same queue at once would meet on the same jobs: the second statement skips,
 * one by one, the rows the first has locked, or, after the first has committed, reads their dead versions. So while
 * {@code n} lanes carry attempts of a queue, the one of rank {@code r} among them claims only that queue's jobs whose
 * id is {@code r} modulo {@code n}; a lane that alone carries a queue claims from the whole of it.
 */
final class Lanes {

    /** Which part of a queue a lane's renewal claims: jobs whose {@code id % parts == part}. */
    record Part(int part, int parts) {

        /** The whole queue. */
        static final Part WHOLE = new Part(0, 1);

        Part {
            if (parts < 1 || part < 0 || part >= parts) {
                throw new IllegalArgumentException("part " + part + " of " + parts);
            }
        }
    }

    private Lanes() {
    }

    /**
     * How many of {@code n} new attempts of one queue each lane takes, given the lanes' {@code loads} and which lanes
     * are {@code carrying} attempts of that queue: the whole claim to one lane when one has room for it (a lane
     * that carries the queue first, then the first in order), or else each lane in order up to {@code fill}, then
     * the rest one by one to the least loaded lane (the first of equals).
     *
     * <p>A claim kept whole keeps its queue on one lane, which then claims from the whole of it: a queue split over
     * two lanes is claimed in two parts, each at the rate of its lane's share of the queue's attempts, so with
     * unequal shares one part runs ahead of the other. It never opens a lane that filling in order would not.
     *
     * @return one count per lane, summing to {@code n}
     */
    static int[] split(int n, int[] loads, boolean[] carrying, int fill) {
        if (n < 0 || fill < 1 || loads.length == 0 || carrying.length != loads.length) {
            throw new IllegalArgumentException("n " + n + ", fill " + fill + ", " + loads.length + " lanes, "
                    + carrying.length + " carrying flags");
        }
        int[] share = new int[loads.length];
        int whole = wholeFit(n, loads, carrying, fill);
        if (whole >= 0) {
            share[whole] = n;
            return share;
        }
        int left = n;
        for (int i = 0; i < loads.length && left > 0; i++) {
            int room = Math.max(0, fill - loads[i]);
            share[i] = Math.min(room, left);
            left -= share[i];
        }
        while (left > 0) {
            int least = 0;
            for (int i = 1; i < loads.length; i++) {
                if (loads[i] + share[i] < loads[least] + share[least]) {
                    least = i;
                }
            }
            share[least]++;
            left--;
        }
        return share;
    }

    /** The lane that takes a claim of {@code n} whole, or -1 when no lane has room for it. */
    private static int wholeFit(int n, int[] loads, boolean[] carrying, int fill) {
        if (n == 0) {
            return -1;
        }
        int first = -1;
        for (int i = 0; i < loads.length; i++) {
            if (fill - loads[i] >= n) {
                if (carrying[i]) {
                    return i;
                }
                if (first < 0) {
                    first = i;
                }
            }
        }
        return first;
    }

    /**
     * The part of a queue lane {@code lane} claims from: its rank among the lanes {@code carrying} attempts of that
     * queue (the lane itself counts whether or not it does), of as many parts as there are such lanes.
     */
    static Part part(int lane, boolean[] carrying) {
        if (lane < 0 || lane >= carrying.length) {
            throw new IllegalArgumentException("lane " + lane + " of " + carrying.length);
        }
        int rank = 0;
        int parts = 0;
        for (int i = 0; i < carrying.length; i++) {
            if (i == lane || carrying[i]) {
                if (i < lane) {
                    rank++;
                }
                parts++;
            }
        }
        return parts == 1 ? Part.WHOLE : new Part(rank, parts);
    }
}
