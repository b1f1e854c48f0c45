package dev.weir.cron;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A cron schedule: five fields (minute, hour, day of month, month, day of week) or six (seconds first), as in the
 * classic crontab. Pure and immutable; {@link #next} finds the next fire time after an instant in a time zone.
 *
 * <p>Each field is {@code *}, a value, a range {@code a-b}, a step {@code *}{@code /n}, {@code a-b/n} or
 * {@code a/n} (from a to the field's end), or a comma-separated list of those. Months may be named {@code JAN}–
 * {@code DEC}, days of the week {@code SUN}–{@code SAT} (0 and 7 are both Sunday), in any case. The macros
 * {@code @yearly} ({@code @annually}), {@code @monthly}, {@code @weekly}, {@code @daily} ({@code @midnight}) and
 * {@code @hourly} stand for their usual five fields. As in crontab, when both the day of month and the day of week
 * are restricted (neither is {@code *}), a day matches if either does.
 *
 * <p>Times are wall-clock times in the schedule's zone. A time that does not exist on a day the clocks go forward
 * fires at the same offset into the new time (02:30 becomes 03:30); a time that occurs twice when they go back fires
 * once, the first time.
 */
public final class CronExpression {

    /** How far {@link #next} looks before it concludes a schedule never fires (30 February, say). */
    static final int HORIZON_YEARS = 8;

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
    private static final String[] MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
        "NOV", "DEC"};
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

    private final String text;
    private final BitSet seconds;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    /** 0 = Sunday … 6 = Saturday (7 folded into 0). */
    private final BitSet daysOfWeek;
    private final boolean dayOfMonthRestricted;
    private final boolean dayOfWeekRestricted;

    private CronExpression(String text, BitSet seconds, BitSet minutes, BitSet hours, BitSet daysOfMonth,
            BitSet months, BitSet daysOfWeek, boolean dayOfMonthRestricted, boolean dayOfWeekRestricted) {
        this.text = text;
        this.seconds = seconds;
        this.minutes = minutes;
        this.hours = hours;
        this.daysOfMonth = daysOfMonth;
        this.months = months;
        this.daysOfWeek = daysOfWeek;
        this.dayOfMonthRestricted = dayOfMonthRestricted;
        this.dayOfWeekRestricted = dayOfWeekRestricted;
    }

    /**
     * Parses a schedule.
     *
     * @throws IllegalArgumentException naming the field and the rule when the text is not a schedule, or when it
     *                                  can never fire (such as {@code 0 0 30 2 *})
     */
    public static CronExpression parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty schedule");
        }
        String trimmed = text.strip();
        String expanded = MACROS.getOrDefault(trimmed.toLowerCase(Locale.ROOT), trimmed);
        if (expanded.startsWith("@")) {
            throw new IllegalArgumentException("unknown macro " + trimmed);
        }
        String[] f = expanded.split("\\s+");
        if (f.length != 5 && f.length != 6) {
            throw new IllegalArgumentException("a schedule has 5 fields (minute hour day month weekday) or 6 (seconds "
                    + "first), not " + f.length);
        }
        int o = f.length - 5;
        BitSet seconds = o == 1 ? field("second", f[0], 0, 59, null) : single(0);
        BitSet minutes = field("minute", f[o], 0, 59, null);
        BitSet hours = field("hour", f[o + 1], 0, 23, null);
        BitSet dom = field("day of month", f[o + 2], 1, 31, null);
        BitSet months = field("month", f[o + 3], 1, 12, MONTHS);
        BitSet dow = field("day of week", f[o + 4], 0, 7, DAYS);
        if (dow.get(7)) {
            dow.set(0);
            dow.clear(7);
        }
        CronExpression cron = new CronExpression(trimmed, seconds, minutes, hours, dom, months, dow,
                !f[o + 2].equals("*"), !f[o + 4].equals("*"));
        if (cron.next(ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneId.of("UTC"))).isEmpty()) {
            throw new IllegalArgumentException("'" + trimmed + "' never fires");
        }
        return cron;
    }

    /**
     * The first fire time strictly after {@code after}, in {@code after}'s zone; empty if there is none within
     * {@value #HORIZON_YEARS} years.
     */
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
        ZoneId zone = after.getZone();
        LocalDateTime t = after.toLocalDateTime().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        LocalDateTime horizon = t.plusYears(HORIZON_YEARS);
        while (t.isBefore(horizon)) {
            if (!months.get(t.getMonthValue())) {
                t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).plusMonths(1);
                continue;
            }
            if (!dayMatches(t.toLocalDate())) {
                t = t.truncatedTo(ChronoUnit.DAYS).plusDays(1);
                continue;
            }
            if (!hours.get(t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
                continue;
            }
            if (!minutes.get(t.getMinute())) {
                t = t.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
                continue;
            }
            if (!seconds.get(t.getSecond())) {
                t = t.plusSeconds(1);
                continue;
            }
            // A wall-clock match; in a zone with a gap it moves forward, in an overlap it takes the earlier offset.
            ZonedDateTime fire = ZonedDateTime.ofLocal(t, zone, null);
            if (fire.isAfter(after)) {
                return Optional.of(fire);
            }
            t = t.plusSeconds(1); // the repeated hour of an overlap: this wall time already fired
        }
        return Optional.empty();
    }

    private boolean dayMatches(LocalDate d) {
        boolean dom = daysOfMonth.get(d.getDayOfMonth());
        boolean dow = daysOfWeek.get(d.getDayOfWeek().getValue() % 7);
        if (dayOfMonthRestricted && dayOfWeekRestricted) {
            return dom || dow;
        }
        return dom && dow;
    }

    private static BitSet single(int value) {
        BitSet b = new BitSet();
        b.set(value);
        return b;
    }

    private static BitSet field(String name, String text, int min, int max, String[] names) {
        BitSet bits = new BitSet(max + 1);
        for (String part : text.split(",", -1)) {
            int step = 1;
            String range = part;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                step = number(name, part.substring(slash + 1), 1, max, null);
                range = part.substring(0, slash);
            }
            int from;
            int to;
            if (range.equals("*")) {
                from = min;
                to = max;
            } else if (range.indexOf('-') > 0) {
                int dash = range.indexOf('-');
                from = number(name, range.substring(0, dash), min, max, names);
                to = number(name, range.substring(dash + 1), min, max, names);
                if (from > to) {
                    throw new IllegalArgumentException(name + ": range " + range + " runs backwards");
                }
            } else {
                from = number(name, range, min, max, names);
                to = slash >= 0 ? max : from;
            }
            for (int v = from; v <= to; v += step) {
                bits.set(v);
            }
        }
        return bits;
    }

    private static int number(String name, String text, int min, int max, String[] names) {
        if (names != null) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equalsIgnoreCase(text)) {
                    return names == MONTHS ? i + 1 : i;
                }
            }
        }
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a number"
                    + (names == null ? "" : " or a name"));
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " is outside " + min + "–" + max);
        }
        return value;
    }

    @Override
    public String toString() {
        return text;
    }
}
