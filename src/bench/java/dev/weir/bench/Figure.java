package dev.weir.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One measured number and what it is read against: a cell of the PostgreSQL ceiling or another figure of the same
 * run, the ratio between them, and the target where there is one.
 *
 * @param scenario the scenario that measured it
 * @param name what was measured, in words
 * @param value the measurement
 * @param unit {@code jobs/s}, {@code ms}, {@code B/job}, {@code commits/job}, {@code MB}
 * @param against what it is compared with (a ceiling cell or another figure), or null
 * @param reference the value of {@code against}, or NaN
 * @param target the target as text ({@code ratio ≥ 0.8}, {@code ≤ 5 ms}), or null
 * @param met whether the target is met, or null when there is no target or nothing to compare with
 * @param roundRatios where the figure and its reference were measured in rounds side by side, each round's own
 *        ratio, in round order (empty otherwise); shown beside the ratio, which stays the medians' (ADR 0015)
 */
record Figure(String scenario, String name, double value, String unit, String against, double reference,
        String target, Boolean met, List<Double> roundRatios) {

    Figure {
        roundRatios = List.copyOf(roundRatios);
    }

    static Figure of(String scenario, String name, double value, String unit) {
        return new Figure(scenario, name, value, unit, null, Double.NaN, null, null, List.of());
    }

    /** Compared with {@code reference}: the ratio is value ÷ reference; NaN when the reference is missing. */
    Figure against(String label, double reference) {
        return new Figure(scenario, name, value, unit, label, reference, target, met, roundRatios);
    }

    /**
     * The rounds behind the figure and its reference, round by round ({@code values[i]} measured beside
     * {@code references[i]}): their ratios are kept and shown, so that a drift of the machine between rounds, which
     * can pair the median of one side with a round of the other, shows in the table.
     */
    Figure rounds(double[] values, double[] references) {
        if (values.length != references.length) {
            throw new IllegalArgumentException("as many rounds on each side: " + values.length + " and "
                    + references.length);
        }
        List<Double> ratios = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            ratios.add(ratio(values[i], references[i]));
        }
        return new Figure(scenario, name, value, unit, against, reference, target, met, ratios);
    }

    /** A target on the ratio: met when value ÷ reference ≥ {@code least}. */
    Figure ratioAtLeast(double least) {
        double r = ratio();
        return new Figure(scenario, name, value, unit, against, reference, "ratio ≥ " + least,
                Double.isNaN(r) ? null : r >= least, roundRatios);
    }

    /** A target on the value itself: met when value ≤ {@code most}. */
    Figure atMost(double most) {
        return new Figure(scenario, name, value, unit, against, reference, "≤ " + Report.number(most) + " " + unit,
                value <= most, roundRatios);
    }

    double ratio() {
        return ratio(value, reference);
    }

    /** {@code value ÷ reference}; NaN when the reference is missing (NaN) or 0. */
    private static double ratio(double value, double reference) {
        return Double.isNaN(reference) || reference == 0 ? Double.NaN : value / reference;
    }
}
