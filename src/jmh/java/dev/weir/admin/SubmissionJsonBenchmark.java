package dev.weir.admin;

import dev.weir.submit.Submissions;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading a submission's body into its jobs, both ways (ADR 0045): through JSON-P and {@link JobRequestParser}, and
 * in one pass with {@link SubmissionJson}. The body is a batch of {@code jobs} jobs as the harness submits them
 * ({@code {"kind":"weir.noop","queue":"enqueue"}}), or of jobs with a few arguments.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class SubmissionJsonBenchmark {

    @Param({"1", "100"})
    int jobs;

    @Param({"none", "some"})
    String args;

    String body;

    @Setup
    public void body() {
        String job = args.equals("none") ? "{\"kind\":\"weir.noop\",\"queue\":\"enqueue\"}"
                : "{\"kind\":\"email.send\",\"queue\":\"enqueue\",\"args\":{\"to\":\"someone@example.com\","
                        + "\"template\":\"welcome\",\"userId\":123456,\"tags\":[\"new\",\"trial\"]}}";
        body = "[" + String.join(",", Collections.nCopies(jobs, job)) + "]";
    }

    @Benchmark
    public List<JobRequestParser.Parsed> jsonp() {
        return JobsResource.batchThroughJsonp(body, Function.identity());
    }

    @Benchmark
    public List<JobRequestParser.Parsed> onePass() {
        return SubmissionJson.batch(body, Integer.MAX_VALUE, Submissions.MAX_BATCH);
    }
}
