package dev.weir.diagnostics;

import dev.weir.api.JobContext;
import dev.weir.api.JobHandler;
import dev.weir.api.JobKind;
import dev.weir.api.Outcome;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The built-in job kinds for benchmarks, chaos tests and operators, registered only with
 * {@code weir.diagnostics.enabled=true}. Plain classes, not CDI beans, so they are never discovered by accident.
 * <ul>
 * <li>{@code weir.noop}: completes at once.</li>
 * <li>{@code weir.sleep} {@code {"ms": n}}: sleeps n ms, then completes (stops early when cancelled).</li>
 * <li>{@code weir.fail} {@code {"times": n}}: fails its first n attempts, then completes; n &lt; 0: always fails.</li>
 * <li>{@code weir.hang}: runs until cancelled or past its deadline.</li>
 * <li>{@code weir.await-cancel}: runs until its cancellation signal, then <em>fails</em> with an error saying it saw
 * the signal (and whether its thread was interrupted): an operator's cancel must still end it {@code cancelled}, since
 * only a completion escapes a cancel request (ADR 0021).</li>
 * <li>{@code weir.crash}: halts the whole server JVM at once ({@link Runtime#halt}: no shutdown hooks, no drain),
 * as a process killed with SIGKILL would stop: the poison job of crash tests, which must end {@code discarded} once
 * rescue has spent its attempts.</li>
 * <li>{@code weir.context}: completes when its thread has what an application's handler relies on, the
 * application's class loader and its naming context ({@code java:comp}); else ends {@code discarded}, naming what
 * was missing (ADR 0029).</li>
 * </ul>
 */
public final class DiagnosticHandlers {

    public static final JobKind<JsonObject> NOOP = JobKind.of("weir.noop", JsonObject.class);
    public static final JobKind<SleepArgs> SLEEP = JobKind.of("weir.sleep", SleepArgs.class);
    public static final JobKind<FailArgs> FAIL = JobKind.of("weir.fail", FailArgs.class);
    public static final JobKind<JsonObject> HANG = JobKind.of("weir.hang", JsonObject.class);
    public static final JobKind<JsonObject> CRASH = JobKind.of("weir.crash", JsonObject.class);
    public static final JobKind<JsonObject> AWAIT_CANCEL = JobKind.of("weir.await-cancel", JsonObject.class);
    public static final JobKind<JsonObject> CONTEXT = JobKind.of("weir.context", JsonObject.class);
    /** The exit status of a server halted by {@code weir.crash}. */
    public static final int CRASH_STATUS = 86;

    public record SleepArgs(long ms) {
    }

    public record FailArgs(int times) {
    }

    private DiagnosticHandlers() {
    }

    public static List<JobHandler<?>> all() {
        return List.of(new Noop(), new Sleep(), new Fail(), new Hang(), new Crash(), new AwaitCancel(), new Context());
    }

    public static final class Noop implements JobHandler<JsonObject> {
        @Override
        public JobKind<JsonObject> kind() {
            return NOOP;
        }

        @Override
        public Outcome handle(JobContext<JsonObject> job) {
            return Outcome.complete();
        }
    }

    public static final class Sleep implements JobHandler<SleepArgs> {
        @Override
        public JobKind<SleepArgs> kind() {
            return SLEEP;
        }

        @Override
        public Outcome handle(JobContext<SleepArgs> job) throws InterruptedException {
            Thread.sleep(Math.max(0, job.args().ms()));
            return Outcome.complete();
        }
    }

    public static final class Fail implements JobHandler<FailArgs> {
        @Override
        public JobKind<FailArgs> kind() {
            return FAIL;
        }

        @Override
        public Outcome handle(JobContext<FailArgs> job) {
            int times = job.args().times();
            if (times < 0 || job.attempt() <= times) {
                throw new IllegalStateException("weir.fail: failing attempt " + job.attempt() + " as asked (times = "
                        + times + ")");
            }
            return Outcome.complete();
        }
    }

    public static final class Hang implements JobHandler<JsonObject> {
        @Override
        public JobKind<JsonObject> kind() {
            return HANG;
        }

        @Override
        public Outcome handle(JobContext<JsonObject> job) throws InterruptedException {
            while (!job.isCancelled()) {
                Thread.sleep(50);
            }
            return Outcome.cancel("weir.hang: stopped when asked");
        }
    }

    public static final class AwaitCancel implements JobHandler<JsonObject> {
        @Override
        public JobKind<JsonObject> kind() {
            return AWAIT_CANCEL;
        }

        @Override
        public Outcome handle(JobContext<JsonObject> job) {
            boolean interrupted = false;
            while (!job.isCancelled()) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return Outcome.fail("weir.await-cancel: saw the cancellation signal (interrupted: " + interrupted + ")");
        }
    }

    public static final class Crash implements JobHandler<JsonObject> {
        @Override
        public JobKind<JsonObject> kind() {
            return CRASH;
        }

        @Override
        public Outcome handle(JobContext<JsonObject> job) {
            System.err.println("weir.crash: job " + job.id() + " halts this server (attempt " + job.attempt() + ")");
            Runtime.getRuntime().halt(CRASH_STATUS);
            throw new AssertionError("unreachable: the JVM has halted");
        }
    }

    public static final class Context implements JobHandler<JsonObject> {
        @Override
        public JobKind<JsonObject> kind() {
            return CONTEXT;
        }

        @Override
        public Outcome handle(JobContext<JsonObject> job) {
            List<String> missing = new ArrayList<>();
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (!loadsThisClass(loader)) {
                missing.add("the application's class loader (the thread has " + loader + ")");
            }
            try {
                new InitialContext().lookup("java:comp/UserTransaction");
            } catch (NamingException e) {
                missing.add("the application's naming context (java:comp/UserTransaction: " + e.getMessage() + ")");
            }
            return missing.isEmpty() ? Outcome.complete()
                    : Outcome.discard("weir.context: the job's thread lacks " + String.join(" and ", missing));
        }

        /** Whether {@code loader} finds this very class: the application's loader does, the server's do not. */
        private static boolean loadsThisClass(ClassLoader loader) {
            try {
                return loader != null && Class.forName(Context.class.getName(), false, loader) == Context.class;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }
}
