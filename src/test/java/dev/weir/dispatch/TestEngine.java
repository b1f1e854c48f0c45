package dev.weir.dispatch;

import dev.weir.api.JobHandler;
import dev.weir.config.QueueSettings;
import dev.weir.config.WeirSettings;
import dev.weir.metrics.WeirMetrics;
import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/** Builds an {@link Engine} from plain parts against the test database: the same code the server runs. */
final class TestEngine {

    static final ThreadFactory DAEMONS = r -> {
        Thread t = new Thread(r);
        t.setDaemon(true);
        return t;
    };

    static WeirSettings settings(QueueSettings... queues) {
        return new WeirSettings(List.of(queues), OptionalInt.empty(), Duration.ofMillis(300), Duration.ofMillis(1500),
                Duration.ofSeconds(5), false);
    }

    static QueueSettings queue(String name, int maxWorkers) {
        return QueueSettings.defaults(name).withMaxWorkers(maxWorkers).withPollInterval(Duration.ofMillis(200));
    }

    static Engine start(WeirSettings settings, List<JobHandler<?>> handlers) {
        ExecutorService executor = Executors.newCachedThreadPool(DAEMONS);
        return start(settings, handlers, executor);
    }

    static Engine start(WeirSettings settings, List<JobHandler<?>> handlers, Executor executor) {
        return start(settings, handlers, executor, WeirMetrics.NONE);
    }

    static Engine start(WeirSettings settings, List<JobHandler<?>> handlers, Executor executor, WeirMetrics metrics) {
        Engine engine = new Engine(new Engine.Parts(settings, new JdbcTransactor(TestDatabase.dataSource()),
                TestDatabase.dataSource(), new HandlerRegistry(handlers), new JsonbArgsCodec(), executor, DAEMONS,
                null, metrics));
        engine.start();
        return engine;
    }

    private TestEngine() {
    }
}
