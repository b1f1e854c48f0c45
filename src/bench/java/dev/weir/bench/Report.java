package dev.weir.bench;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.stream.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one run found: the figures, each scenario's raw details, what was skipped and why. Printed as a Markdown
 * table (so it can be pasted into a README as it is) and written as JSON.
 */
final class Report {

    private final List<Figure> figures = new ArrayList<>();
    private final Map<String, JsonObject> details = new LinkedHashMap<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final JsonObjectBuilder run = Json.createObjectBuilder();

    void add(Figure figure) {
        figures.add(figure);
    }

    List<Figure> figures() {
        return figures;
    }

    void details(String scenario, JsonObject object) {
        details.put(scenario, object);
    }

    void skipped(String scenario, String why) {
        skipped.put(scenario, why);
    }

    JsonObjectBuilder run() {
        return run;
    }

    /** The table: one row per figure, its ratio to what it is compared with, and the target. */
    String table() {
        StringBuilder t = new StringBuilder();
        t.append("| scenario | figure | value | compared with | ratio | target |\n");
        t.append("|---|---|---|---|---|---|\n");
        for (Figure f : figures) {
            String against = f.against() == null ? "–"
                    : f.against() + (Double.isNaN(f.reference()) ? " (not measured)"
                            : " (" + number(f.reference()) + " " + f.unit() + ")");
            double r = f.ratio();
            String target = f.target() == null ? "–"
                    : f.target() + (f.met() == null ? "" : f.met() ? ": met" : ": not met");
            t.append("| ").append(f.scenario())
                    .append(" | ").append(f.name())
                    .append(" | ").append(number(f.value())).append(' ').append(f.unit())
                    .append(" | ").append(against)
                    .append(" | ").append(Double.isNaN(r) ? "–" : ratio(r) + rounds(f))
                    .append(" | ").append(target)
                    .append(" |\n");
        }
        skipped.forEach((scenario, why) -> t.append("| ").append(scenario).append(" | skipped: ").append(why)
                .append(" | | | | |\n"));
        return t.toString();
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "–" : String.format(Locale.ROOT, "%.2f", r);
    }

    /** Each round's own ratio, after the figure's: " (rounds 0.86, 0.83, 0.74)", or nothing. */
    private static String rounds(Figure f) {
        if (f.roundRatios().isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(" (rounds ");
        for (int i = 0; i < f.roundRatios().size(); i++) {
            b.append(i == 0 ? "" : ", ").append(ratio(f.roundRatios().get(i)));
        }
        return b.append(')').toString();
    }

    void write(Path file) throws IOException {
        JsonArrayBuilder fs = Json.createArrayBuilder();
        for (Figure f : figures) {
            JsonObjectBuilder o = Json.createObjectBuilder()
                    .add("scenario", f.scenario())
                    .add("name", f.name())
                    .add("value", json(f.value()))
                    .add("unit", f.unit());
            if (f.against() != null) {
                o.add("against", f.against());
                if (!Double.isNaN(f.reference())) {
                    o.add("reference", json(f.reference())).add("ratio", json(f.ratio()));
                }
                if (!f.roundRatios().isEmpty()) {
                    JsonArrayBuilder rs = Json.createArrayBuilder();
                    f.roundRatios().forEach(x -> rs.add(json(x)));
                    o.add("roundRatios", rs);
                }
            }
            if (f.target() != null) {
                o.add("target", f.target());
                if (f.met() != null) {
                    o.add("met", f.met());
                }
            }
            fs.add(o);
        }
        JsonObjectBuilder d = Json.createObjectBuilder();
        details.forEach(d::add);
        JsonObjectBuilder s = Json.createObjectBuilder();
        skipped.forEach(s::add);
        JsonObject all = run.add("figures", fs).add("details", d).add("skipped", s).build();
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                JsonWriter json = Json.createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true))
                        .createWriter(w)) {
            json.write(all);
        }
    }

    /** A number for JSON, which has no NaN or infinity: those become null (not measured). */
    static JsonValue json(double v) {
        return Double.isFinite(v) ? Json.createValue(v) : JsonValue.NULL;
    }

    /** 8,089 for large numbers, 2.35 for small ones, whole numbers as they are. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (Math.abs(v) >= 100 || (v == Math.rint(v) && Math.abs(v) < 1e15)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
