package dev.weir.dispatch;

/**
 * One queue's claim cursors on this instance (ADR 0024): one for the dispatcher's polls and one per completer lane
 * (ADR 0032), since lanes that claim from different parts of the queue get to different places in it.
 *
 * <p>A lane's cursor is reset when the part it claims from changes, unless it claimed from the whole queue before:
 * a cursor that moved over one part only may have passed jobs of the others that are still available, while one
 * that moved over the whole queue passed none of any part. Thread-safe.
 */
final class ClaimCursors {

    private final ClaimCursor poll;
    private final ClaimCursor[] lanes;
    /** Guarded by {@code this}: the part each lane's cursor last claimed from. */
    private final Lanes.Part[] parts;

    ClaimCursors(int lanes, long maxAgeNanos) {
        this.poll = new ClaimCursor(maxAgeNanos);
        this.lanes = new ClaimCursor[lanes];
        this.parts = new Lanes.Part[lanes];
        for (int i = 0; i < lanes; i++) {
            this.lanes[i] = new ClaimCursor(maxAgeNanos);
            this.parts[i] = Lanes.Part.WHOLE;
        }
    }

    /** The cursor of the dispatcher's polls, which claim from the whole queue. */
    ClaimCursor poll() {
        return poll;
    }

    /** The cursor of lane {@code lane} for a claim from {@code part}. */
    synchronized ClaimCursor lane(int lane, Lanes.Part part) {
        if (!part.equals(parts[lane])) {
            if (!parts[lane].equals(Lanes.Part.WHOLE)) {
                lanes[lane].reset();
            }
            parts[lane] = part;
        }
        return lanes[lane];
    }

    /** Every claim starts at the head of the queue again: jobs may have become available before the cursors. */
    void reset() {
        poll.reset();
        for (ClaimCursor c : lanes) {
            c.reset();
        }
    }
}
