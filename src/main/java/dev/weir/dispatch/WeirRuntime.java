package dev.weir.dispatch;

import dev.weir.api.JobHandler;
import dev.weir.concurrency.OverflowPool;
import dev.weir.config.ExecutorThreads;
import dev.weir.config.WeirConfiguration;
import dev.weir.config.WeirSettings;
import dev.weir.config.QueueSettings;
import dev.weir.diagnostics.DiagnosticHandlers;
import dev.weir.metrics.MicroProfileMetrics;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.GenericPlanCheck;
import dev.weir.store.JitCheck;
import dev.weir.store.LocalTransactor;
import dev.weir.store.Migrator;
import dev.weir.store.SequentialScanCheck;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Starts Weir with the application and stops it with the application: reads the configuration (invalid
 * configuration fails the deployment here), brings the schema up to date, discovers the handlers and runs the
 * {@link Engine} on container-managed threads and the managed executor.
 *
 * <p>A singleton with bean-managed concurrency: its only state is the engine reference, written once in
 * {@link #start()} and read when it stops. The rest of the application reads the engine from {@link RunningEngine},
 * not through a call on this bean.
 */
@Singleton
@Startup
@DependsOn("EmbeddedDatabase")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
public class WeirRuntime {

    private static final Logger LOG = Logger.getLogger(WeirRuntime.class.getName());

    @Inject
    WeirConfiguration configuration;

    @Inject
    LocalTransactor transactor;

    @Inject
    @Any
    Instance<JobHandler<?>> handlers;

    @Inject
    OverflowPool overflowPool;

    @Inject
    MicroProfileMetrics metrics;

    @Inject
    RunningEngine running;

    @Resource(lookup = "jdbc/weir-session")
    DataSource sessionDataSource;

    @Resource(lookup = "jdbc/weir")
    DataSource applicationDataSource;

    @Resource(lookup = "jdbc/weir-engine")
    DataSource engineDataSource;

    @Resource(lookup = "jdbc/weir-submit")
    DataSource submitDataSource;

    @Resource(lookup = "concurrent/weir-jobs")
    ManagedExecutorService executor;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    private volatile Engine engine;

    @PostConstruct
    void start() {
        long began = System.nanoTime();
        WeirSettings settings = configuration.settings();
        try {
            Migrator.migrate(sessionDataSource);
        } catch (SQLException e) {
            throw new IllegalStateException("Weir: cannot bring the database schema up to date: " + e.getMessage(), e);
        }
        reconcileAdmissionSlots(settings);
        checkSessionSettings();
        checkExecutorThreads(settings);
        List<JobHandler<?>> all = new ArrayList<>();
        handlers.forEach(all::add);
        if (settings.diagnostics()) {
            all.addAll(DiagnosticHandlers.all());
        }
        HandlerRegistry registry = new HandlerRegistry(all);
        Engine e = new Engine(new Engine.Parts(settings, transactor, sessionDataSource, registry,
                new JsonbArgsCodec(), executor, threads, settings.weighted() ? overflowPool.allocator() : null, metrics));
        e.start();
        engine = e;
        running.set(e);
        Map<String, Integer> bounds = new LinkedHashMap<>();
        settings.queues().forEach(q -> q.maxPending().ifPresent(p -> bounds.put(q.name(), p)));
        metrics.watch(e.capacities(), bounds, transactor);
        LOG.info(() -> "Weir: ready in " + (System.nanoTime() - began) / 1_000_000 + " ms; job kinds "
                + registry.kinds());
    }

    /**
     * Says when Liberty's default executor keeps fewer threads than the queues may run jobs at once (ADR 0042). The
     * variable comes through MicroProfile Config: the environment's value, else server.xml's default. A value that is
     * not a number leaves Liberty's own default, two threads per hardware thread.
     */
    private void checkExecutorThreads(WeirSettings settings) {
        Optional<String> value = ConfigProvider.getConfig(WeirRuntime.class.getClassLoader())
                .getOptionalValue(ExecutorThreads.VARIABLE, String.class);
        if (value.isEmpty()) {
            LOG.fine(() -> "Weir: " + ExecutorThreads.VARIABLE + " is not set; the executor's size is not checked");
            return;
        }
        OptionalInt threads = ExecutorThreads.parse(value);
        int core = threads.isPresent() ? threads.getAsInt() : 2 * Runtime.getRuntime().availableProcessors();
        ExecutorThreads.advice(settings, core).ifPresent(LOG::warning);
    }

    /** Gives each bounded queue exactly max-pending admission slots (ADR 0011); the last instance to start wins. */
    private void reconcileAdmissionSlots(WeirSettings settings) {
        Map<String, Integer> bounds = new LinkedHashMap<>();
        for (QueueSettings q : settings.queues()) {
            q.maxPending().ifPresent(p -> bounds.put(q.name(), p));
        }
        try {
            for (AdmissionSlots.Reconciled r : AdmissionSlots.reconcile(sessionDataSource, bounds)) {
                if (r.changed()) {
                    LOG.info(() -> "Weir: queue " + r.queue() + " now has " + r.slots() + " admission slots (had "
                            + r.slotsBefore() + "); " + r.adopted() + " outstanding jobs submitted without a slot"
                            + " took one");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Weir: cannot set up the admission slots of the bounded queues "
                    + bounds.keySet() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Says which of Weir's data sources let PostgreSQL JIT-compile their statements (ADR 0033), and whether the
     * engine's and the group commits' sessions keep generic plans (ADR 0034, ADR 0037), and whether the engine's
     * leave sequential scans to the planner's choice (ADR 0046).
     */
    private void checkSessionSettings() {
        Map<String, DataSource> sources = new LinkedHashMap<>();
        sources.put("jdbc/weir", applicationDataSource);
        sources.put("jdbc/weir-engine", engineDataSource);
        sources.put("jdbc/weir-submit", submitDataSource);
        sources.put("jdbc/weir-session", sessionDataSource);
        Set<String> generic = Set.of("jdbc/weir-engine", "jdbc/weir-submit");
        sources.forEach((name, source) -> {
            try {
                JitCheck.advice(name, JitCheck.of(source)).ifPresent(LOG::warning);
                if (generic.contains(name)) {
                    GenericPlanCheck.advice(name, GenericPlanCheck.of(source)).ifPresent(LOG::warning);
                }
                if (name.equals("jdbc/weir-engine")) {
                    SequentialScanCheck.advice(name, SequentialScanCheck.of(source)).ifPresent(LOG::warning);
                }
            } catch (SQLException e) {
                LOG.log(Level.FINE, "Weir: cannot read the session settings of " + name, e);
            }
        });
    }

    @PreDestroy
    void stop() {
        Engine e = engine;
        if (e == null) {
            return;
        }
        try {
            e.drain(configuration.settings().shutdownTimeout());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }
}
