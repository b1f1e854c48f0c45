package dev.weir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    /** The eight weighted queues of the run of 2026-12-07: the busy queue's side sped up after its first round. */
    private static Figure drifted() {
        return Figure.of("weighted", "8 queues", 9808, "jobs/s").against("1 busy queue", 13157)
                .rounds(new double[] {7893, 10858, 9808}, new double[] {9199, 13157, 13211}).ratioAtLeast(0.8);
    }

    @Test
    void eachRoundKeepsItsOwnRatioWhileTheFigureStaysTheMediansRatio() {
        Figure f = drifted();
        assertEquals(3, f.roundRatios().size());
        assertEquals(0.858, f.roundRatios().get(0), 0.001);
        assertEquals(0.825, f.roundRatios().get(1), 0.001);
        assertEquals(0.742, f.roundRatios().get(2), 0.001);
        assertEquals(9808.0 / 13157, f.ratio(), 1e-9);
        assertFalse(f.met(), "the target is judged on the medians, as before");
    }

    @Test
    void theRoundsOfBothSidesMustPairUp() {
        Figure f = Figure.of("queues", "8 queues", 1, "jobs/s").against("1 queue", 1);
        assertThrows(IllegalArgumentException.class, () -> f.rounds(new double[] {1, 2}, new double[] {1}));
    }

    @Test
    void theTableShowsTheRoundsBesideTheRatioAndNothingWhenThereAreNone() {
        Report report = new Report();
        report.add(drifted());
        report.add(Figure.of("drain", "16 workers", 12509, "jobs/s").against("k=10", 6474));
        List<String> rows = report.table().lines().toList();
        assertTrue(rows.get(2).contains("| 0.75 (rounds 0.86, 0.83, 0.74) | ratio ≥ 0.8: not met |"), rows.get(2));
        assertTrue(rows.get(3).contains("| 1.93 | – |"), rows.get(3));
    }

    @Test
    void theJsonCarriesTheRoundsRatios(@TempDir Path dir) throws Exception {
        Report report = new Report();
        report.add(drifted());
        report.add(Figure.of("drain", "16 workers", 12509, "jobs/s").against("k=10", 6474));
        Path file = dir.resolve("results.json");
        report.write(file);
        JsonArray figures;
        try (JsonReader r = Json.createReader(Files.newBufferedReader(file))) {
            figures = r.readObject().getJsonArray("figures");
        }
        JsonArray rounds = figures.getJsonObject(0).getJsonArray("roundRatios");
        assertEquals(3, rounds.size());
        assertEquals(0.742, rounds.getJsonNumber(2).doubleValue(), 0.001);
        JsonObject plain = figures.getJsonObject(1);
        assertFalse(plain.containsKey("roundRatios"));
    }
}
