package dev.weir.bench;

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
 */
record Figure(String scenario, String name, double value, String unit, String against, double reference,
        String target, Boolean met) {

    static Figure of(String scenario, String name, double value, String unit) {
        return new Figure(scenario, name, value, unit, null, Double.NaN, null, null);
    }

    /** Compared with {@code reference}: the ratio is value ÷ reference; NaN when the reference is missing. */
    Figure against(String label, double reference) {
        return new Figure(scenario, name, value, unit, label, reference, target, met);
    }

    /** A target on the ratio: met when value ÷ reference ≥ {@code least}. */
    Figure ratioAtLeast(double least) {
        double r = ratio();
        return new Figure(scenario, name, value, unit, against, reference, "ratio ≥ " + least,
                Double.isNaN(r) ? null : r >= least);
    }

    /** A target on the value itself: met when value ≤ {@code most}. */
    Figure atMost(double most) {
        return new Figure(scenario, name, value, unit, against, reference, "≤ " + Report.number(most) + " " + unit,
                value <= most);
    }

    double ratio() {
        return Double.isNaN(reference) || reference == 0 ? Double.NaN : value / reference;
    }
}
