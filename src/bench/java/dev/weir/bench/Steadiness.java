package dev.weir.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a warm-up has reached its steady rate: the rates of its rounds, in order, and steady once the last two
 * differ by at most {@code tolerance} of the larger. A fresh server's HTTP path ran 835, 1,900, ... 4,558 calls/s in
 * its first six 8 s rounds here (ADR 0028): a fixed warm-up either wastes time or stops while the JIT still works.
 */
final class Steadiness {

    private final double tolerance;
    private final List<Double> rates = new ArrayList<>();

    Steadiness(double tolerance) {
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw new IllegalArgumentException("tolerance must be in [0, 1): " + tolerance);
        }
        this.tolerance = tolerance;
    }

    /** Records the rate of one more round. */
    void add(double rate) {
        rates.add(rate);
    }

    /** True when the last two rounds agree within the tolerance (and neither is zero). */
    boolean steady() {
        int n = rates.size();
        if (n < 2) {
            return false;
        }
        double a = rates.get(n - 2);
        double b = rates.get(n - 1);
        double larger = Math.max(a, b);
        return larger > 0 && Math.abs(a - b) <= tolerance * larger;
    }

    /** The rounds' rates, in order. */
    List<Double> rates() {
        return List.copyOf(rates);
    }
}
