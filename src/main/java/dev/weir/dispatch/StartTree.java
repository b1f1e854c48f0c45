package dev.weir.dispatch;

/**
 * The order in which a batch of claimed attempts is handed to the executor (ADR 0026, amendment 4): as a binary tree
 * over the batch's positions. The thread that claimed the batch hands over the {@linkplain #roots roots}; the task of
 * each attempt first hands over its {@linkplain #firstChild children}, then runs its own handler. Every position is
 * reached exactly once, and the last one after about log₂ n hand-overs instead of n. Pure arithmetic.
 */
final class StartTree {

    /** How many positions each one hands over: also the number of roots. */
    static final int FAN_OUT = 2;

    private StartTree() {
    }

    /** The positions the claiming thread hands over itself: 0 up to this, exclusive. */
    static int roots(int size) {
        return Math.min(FAN_OUT, size);
    }

    /** The first position that position {@code i} hands over (none when it is {@code size} or more). */
    static int firstChild(int i) {
        return FAN_OUT * (i + 1);
    }

    /** The position after the last one that position {@code i} hands over, in a batch of {@code size}. */
    static int endOfChildren(int i, int size) {
        return Math.min(firstChild(i) + FAN_OUT, size);
    }
}
