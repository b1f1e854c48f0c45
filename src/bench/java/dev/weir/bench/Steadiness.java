package dev.weir.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a warm-up has reached its steady rate: the rates of its rounds, in order, and steady once the last
 * {@code window} of them lie within {@code tolerance} of the largest of them. A fresh server's HTTP path ran 835,
 * 1,900, ... 4,558 calls/s in its first six 8 s rounds here (ADR 0028): a fixed warm-up either wastes time or stops
 * while the JIT still works. Two rounds are too few: single submissions rising by 7 % a round passed for steady with
 * a tolerance of a tenth and went on rising by a half.
 */
final class Steadiness {

    private final int window;
    private final double tolerance;
    private final List<Double> rates = new ArrayList<>();

    Steadiness(int window, double tolerance) {
        if (window < 2) {
            throw new IllegalArgumentException("window must be at least 2 rounds: " + window);
        }
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw new IllegalArgumentException("tolerance must be in [0, 1): " + tolerance);
        }
        this.window = window;
        this.tolerance = tolerance;
    }

    /** Records the rate of one more round. */
    void add(double rate) {
        rates.add(rate);
    }

    /** True when the last {@code window} rounds lie within the tolerance of their largest (and it is not zero). */
    boolean steady() {
        int n = rates.size();
        if (n < window) {
            return false;
        }
        List<Double> last = rates.subList(n - window, n);
        double largest = last.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double smallest = last.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        return largest > 0 && largest - smallest <= tolerance * largest;
    }

    /** The rounds' rates, in order. */
    List<Double> rates() {
        return List.copyOf(rates);
    }
}
