package dev.weir.dispatch;

import dev.weir.concurrency.HardReservedCapacity;
import dev.weir.concurrency.OverflowPool;
import dev.weir.concurrency.QueueCapacity;
import dev.weir.concurrency.SharedOverflow;
import dev.weir.concurrency.TokenBucket;
import dev.weir.concurrency.WeightedCapacity;
import dev.weir.config.QueueSettings;
import dev.weir.config.WeirSettings;
import dev.weir.metrics.JobEvent;
import dev.weir.metrics.JobLog;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.JobStore;
import dev.weir.store.Transactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Weir's machinery on one instance, free of any container: a dispatcher per queue, the runner and completer
 * they share, the notification listener and the maintenance thread. The server wires it from container
 * resources ({@code dev.weir.dispatch.WeirRuntime}); tests wire it from plain ones.
 *
 * <p>Life cycle: {@link #start()} once, then {@link #drain(Duration)} once.
 */
public final class Engine {

    private static final Logger LOG = Logger.getLogger(Engine.class.getName());
    /** The part of the shutdown timeout kept for writing hand-backs (at most a fifth of it). */
    static final Duration HANDBACK_RESERVE = Duration.ofSeconds(5);
    /** A control message asking to cancel a running job: {@code cancel:<id>}. */
    static final String CANCEL_PREFIX = "cancel:";
    /** Control messages of a queue paused or resumed by an operator: {@code pause:<queue>}, {@code resume:<queue>}. */
    static final String PAUSE_PREFIX = "pause:";
    static final String RESUME_PREFIX = "resume:";

    /**
     * What the engine is built from.
     *
     * @param overflow weighted mode: the instance's overflow pool (the server passes its {@code OverflowPool} EJB);
     *                 null: the engine makes one from the settings when they ask for weighted mode
     */
    public record Parts(WeirSettings settings, Transactor transactor, DataSource sessionDataSource,
            HandlerRegistry handlers, ArgsCodec codec, Executor executor, ThreadFactory threads,
            SharedOverflow overflow, WeirMetrics metrics) {

        /** Parts with no metrics. */
        public Parts(WeirSettings settings, Transactor transactor, DataSource sessionDataSource,
                HandlerRegistry handlers, ArgsCodec codec, Executor executor, ThreadFactory threads,
                SharedOverflow overflow) {
            this(settings, transactor, sessionDataSource, handlers, codec, executor, threads, overflow,
                    WeirMetrics.NONE);
        }
    }

    private final WeirSettings settings;
    private final Transactor transactor;
    private final String instance;
    /**
     * Completer lanes (ADR 0032): a second one opens when the first carries {@link #LANE_FILL} attempts, so that
     * two turns' statements are in flight at once.
     */
    static final int LANES = 2;
    /** Attempts a lane carries before the next one opens: about what one turn needs to pay for itself. */
    static final int LANE_FILL = 50;

    private final List<Completer> lanes = new ArrayList<>(LANES);
    private final JobRunner runner;
    private final Notifier notifier;
    private final Broadcaster broadcaster;
    private final Maintenance maintenance;
    private final Map<String, QueueDispatcher> dispatchers = new LinkedHashMap<>();
    private volatile boolean started;
    private volatile boolean draining;

    public Engine(Parts parts) {
        this.settings = parts.settings();
        this.transactor = parts.transactor();
        this.instance = instanceName();
        WeirMetrics metrics = parts.metrics();
        for (int i = 0; i < LANES; i++) {
            lanes.add(new Completer(transactor, dispatchers::get, i, this::part, parts.threads(), metrics,
                    this::startAttempts));
        }
        this.runner = new JobRunner(settings, parts.handlers(), parts.codec(), parts.executor(), this::assign,
                (job, progress) -> transactor.inNewTransaction(
                        sql -> JobStore.progress(sql, job.id(), job.lease(), progress)));
        this.maintenance = new Maintenance(settings, transactor, parts.sessionDataSource(), instance, this,
                parts.threads(), metrics);
        SharedOverflow overflow = null;
        if (settings.weighted()) {
            overflow = parts.overflow() != null ? parts.overflow() : OverflowPool.forSettings(settings);
            // Overflow coming back wakes the queues it would now serve, not only the one that released it.
            overflow.onCapacityFreed(queues -> queues.forEach(this::ring));
        }
        for (QueueSettings q : settings.queues()) {
            QueueCapacity capacity;
            int batch;
            if (overflow != null) {
                capacity = new WeightedCapacity(q.name(), q.minWorkers(), overflow);
                batch = q.minWorkers() + overflow.capacity();
            } else {
                capacity = new HardReservedCapacity(q.name(), q.maxWorkers());
                batch = q.maxWorkers();
            }
            TokenBucket bucket = q.rateLimit().isPresent()
                    ? new TokenBucket(q.rateLimit().getAsDouble(),
                            q.rateBurst().orElse((int) Math.ceil(q.rateLimit().getAsDouble())))
                    : null;
            dispatchers.put(q.name(), new QueueDispatcher(q, capacity, bucket, transactor, runner, instance,
                    parts.threads(), batch, LANES, metrics));
        }
        this.broadcaster = new Broadcaster(parts.sessionDataSource(), parts.threads());
        this.notifier = new Notifier(parts.sessionDataSource(), this::wake, this::control, this::listeningBegan,
                broadcaster::hello, broadcaster::backendPid, parts.threads());
    }

    private static String instanceName() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "host";
        }
        return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Starts every thread. The heartbeat is written first, so no claim happens before this instance is known. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("Weir engine already started");
        }
        maintenance.heartbeat();
        maintenance.registerPeriodic();
        for (String queue : transactor.alone(JobStore::pausedQueues)) {
            heard(queue, true);
        }
        lanes.forEach(Completer::start);
        notifier.start();
        broadcaster.start();
        maintenance.start();
        dispatchers.values().forEach(QueueDispatcher::start);
        started = true;
        LOG.info(() -> "Weir: instance " + instance + " started, queues " + dispatchers.keySet() + ", mode "
                + (settings.weighted() ? "weighted" : "hard-reserved"));
    }

    /**
     * Stops this instance gracefully: no new claims; running attempts get up to {@code timeout} less a reserve (5 s,
     * or a fifth of a shorter timeout) to finish, with heartbeats going on; whatever is still running then is
     * cancelled and handed back at once (available again, attempt spent) rather than left for the rescuer; outcomes
     * are written; the instance row goes.
     */
    public void drain(Duration timeout) throws InterruptedException {
        if (!started || draining) {
            return;
        }
        draining = true;
        // Keep the end of the drain for writing hand-backs: the server closes its connection pools soon after a stop
        // begins (Liberty: about 30 s), and a hand-back that cannot be written waits for the rescuer instead.
        Duration fifth = timeout.dividedBy(5);
        Duration reserve = fifth.compareTo(HANDBACK_RESERVE) < 0 ? fifth : HANDBACK_RESERVE;
        long deadline = System.nanoTime() + timeout.minus(reserve).toNanos();
        LOG.info(() -> "Weir: instance " + instance + " draining " + runner.inFlight().size()
                + " running jobs (at most " + timeout + ")");
        for (QueueDispatcher d : dispatchers.values()) {
            d.stop();
        }
        notifier.stop();
        while (!runner.inFlight().isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        List<Attempt> left = new ArrayList<>(runner.inFlight());
        for (Attempt a : left) {
            if (runner.settle(a, Outcomes.abandoned(a.job(), instance))) {
                a.cancel();
            }
        }
        if (!left.isEmpty()) {
            LOG.warning(() -> "Weir: handed back " + left.size() + " jobs that did not finish within " + timeout);
        }
        for (Completer lane : lanes) {
            lane.stop(Duration.ofSeconds(10));
        }
        broadcaster.stop();
        maintenance.stop();
        try {
            transactor.inNewTransaction(sql -> {
                JobStore.deleteInstances(sql, instance, Duration.ofDays(3650).toMillis());
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warning(() -> "Weir: could not remove instance row " + instance + ": " + e);
        }
        LOG.info(() -> "Weir: instance " + instance + " stopped");
    }

    /** Starts the attempts of a turn (the completer's). */
    private void startAttempts(List<Attempt> attempts) {
        runner.start(attempts);
    }

    /**
     * Gives a dispatcher's newly claimed attempts (never empty, all of its one queue; a completer's turn adopts its
     * own) to the lanes: whole to one lane that has room for them, or filling the lanes in order
     * ({@link Lanes#split}); one dispatcher at a time, so that two claims do not both fill the same room.
     */
    private void assign(List<Attempt> attempts) {
        synchronized (lanes) {
            int[] share = Lanes.split(attempts.size(), laneLoads(), carrying(attempts.get(0).queue()), LANE_FILL);
            int from = 0;
            for (int i = 0; i < share.length; i++) {
                if (share[i] > 0) {
                    lanes.get(i).adopt(attempts.subList(from, from + share[i]));
                    from += share[i];
                }
            }
        }
    }

    /**
     * The part of {@code queue} lane {@code lane} claims from now ({@link Lanes#part}), among the lanes that carry
     * attempts of that queue: a lane that alone carries a queue claims all of it, whatever the other lanes carry.
     */
    private Lanes.Part part(int lane, String queue) {
        return Lanes.part(lane, carrying(queue));
    }

    /** Which lanes carry attempts of {@code queue} now. */
    private boolean[] carrying(String queue) {
        boolean[] carrying = new boolean[lanes.size()];
        for (int i = 0; i < carrying.length; i++) {
            carrying[i] = lanes.get(i).carrying(queue);
        }
        return carrying;
    }

    /** Each lane's load now: the attempts it carries whose outcome it has not been handed yet. */
    int[] laneLoads() {
        int[] loads = new int[lanes.size()];
        for (int i = 0; i < loads.length; i++) {
            loads[i] = lanes.get(i).load();
        }
        return loads;
    }

    /** Cancels and fails the attempts past their deadline; their permits come back once that is written. */
    void enforceDeadlines(long nowNanos) {
        for (Attempt a : runner.inFlight()) {
            if (a.pastDeadline(nowNanos)) {
                QueueSettings q = settings.queue(a.queue()).orElseThrow();
                // Settle before cancelling: a handler woken by the cancel must find its outcome already decided.
                if (runner.settle(a, Outcomes.deadlineExceeded(a.job(), q.deadline().toMillis()))) {
                    a.cancel();
                    JobLog.log(JobEvent.DEADLINE_EXCEEDED, a.queue(), a.kind(), a.id(), a.attempt(),
                            "deadline", q.deadline().toString(), "action", "asked the handler to stop; attempt failed");
                }
            }
        }
    }

    /**
     * An instruction on the control channel: {@code cancel:<id>} (ADR 0021), {@code pause:<queue>} or
     * {@code resume:<queue>}; anything else is ignored.
     */
    void control(String payload) {
        if (payload != null && (payload.startsWith(PAUSE_PREFIX) || payload.startsWith(RESUME_PREFIX))) {
            boolean pause = payload.startsWith(PAUSE_PREFIX);
            heard(payload.substring((pause ? PAUSE_PREFIX : RESUME_PREFIX).length()), pause);
            return;
        }
        if (payload == null || !payload.startsWith(CANCEL_PREFIX)) {
            LOG.fine(() -> "Weir: ignored control message '" + payload + "'");
            return;
        }
        long id;
        try {
            id = Long.parseLong(payload.substring(CANCEL_PREFIX.length()));
        } catch (NumberFormatException e) {
            LOG.fine(() -> "Weir: ignored control message '" + payload + "'");
            return;
        }
        signalCancel(id, -1);
    }

    /**
     * An operator asked to cancel running job {@code id}: signals its attempt if it runs here (any lease when
     * {@code lease} is negative), without settling it: the handler decides when to return, and its outcome, unless
     * a completion, is written as cancelled. Returns whether an attempt here was signalled now.
     */
    boolean signalCancel(long id, long lease) {
        for (Attempt a : runner.inFlight()) {
            if (a.id() == id && (lease < 0 || a.job().lease() == lease) && !a.isCancelled()) {
                a.cancel();
                LOG.info(() -> "Weir: " + a + " cancelled by an operator; its handler was signalled");
                return true;
            }
        }
        return false;
    }

    /**
     * The fallback for lost cancel notifications: signals the attempts running here whose jobs an operator asked to
     * cancel. Asked of the database only while attempts run here (Maintenance, with the heartbeat).
     */
    void pollCancelRequests() {
        if (runner.inFlight().isEmpty()) {
            return;
        }
        Map<Long, Long> requested = transactor.inNewTransaction(sql -> JobStore.cancelRequested(sql, instance));
        requested.forEach((id, lease) -> signalCancel(id, lease));
    }

    /**
     * New jobs committed in {@code queues}: wakes this instance's dispatchers at once and tells the other instances
     * through {@code NOTIFY}, from a thread of its own; the caller never waits for the database.
     */
    public void announce(java.util.Collection<String> queues) {
        queues.forEach(this::wake);
        broadcaster.announce(queues);
    }

    /** The hellos heard from instances that started, so far (ADR 0040). */
    long hellos() {
        return broadcaster.hellos();
    }

    /**
     * Whether other instances are alive, as a heartbeat found that began when {@code hellosBefore} hellos had been
     * heard: when none is, announcements go to nobody and the broadcaster sends none (ADR 0040).
     */
    void othersAlive(boolean alive, long hellosBefore) {
        broadcaster.others(alive, hellosBefore);
    }

    /** Whether this instance sends its announcements to other instances now (ADR 0040). */
    boolean broadcasting() {
        return broadcaster.others();
    }

    /** Tells the queue's dispatcher on this instance, if any, that an operator paused or resumed it. */
    private void heard(String queue, boolean paused) {
        QueueDispatcher d = dispatchers.get(queue);
        if (d != null) {
            d.paused(paused);
        }
    }

    /** Whether this instance has heard that an operator paused {@code queue} (a hint; the claims read the flag). */
    boolean heardPaused(String queue) {
        QueueDispatcher d = dispatchers.get(queue);
        return d != null && d.pausedHint();
    }

    /** Makes the queue's dispatcher on this instance poll now (new jobs are available). */
    public void wake(String queue) {
        QueueDispatcher d = dispatchers.get(queue);
        if (d != null) {
            d.wake();
        }
    }

    /** Makes the queue's dispatcher poll now because shared capacity came back (no sign of new work). */
    private void ring(String queue) {
        QueueDispatcher d = dispatchers.get(queue);
        if (d != null) {
            d.ring();
        }
    }

    /**
     * The notifier listens (again, or for the first time): whatever was sent before is lost to it, after a lost
     * connection or since {@link #start} read the paused queues. Reads which queues are paused again (a pause or
     * resume told meanwhile would otherwise be missed until the next one) and wakes every dispatcher once, for the
     * jobs announced meanwhile.
     */
    void listeningBegan() {
        try {
            Set<String> paused = transactor.alone(JobStore::pausedQueues);
            // A resume wakes its dispatcher.
            dispatchers.forEach((queue, d) -> d.paused(paused.contains(queue)));
        } catch (RuntimeException e) {
            LOG.fine(() -> "Weir: could not read the paused queues when the notifier began to listen: " + e);
        }
        dispatchers.values().forEach(QueueDispatcher::wake);
    }

    public String instance() {
        return instance;
    }

    public boolean draining() {
        return draining;
    }

    /** Every dispatcher thread and the maintenance thread are running. */
    public boolean alive() {
        return started && !draining && maintenance.alive()
                && dispatchers.values().stream().allMatch(QueueDispatcher::alive);
    }

    public boolean leader() {
        return maintenance.leader();
    }

    public boolean listening() {
        return notifier.listening();
    }

    /** The rate limit of {@code queue} on this instance, if it has one. */
    public java.util.Optional<TokenBucket> rateLimit(String queue) {
        QueueDispatcher d = dispatchers.get(queue);
        return d == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(d.bucket());
    }

    public Map<String, QueueCapacity> capacities() {
        Map<String, QueueCapacity> map = new LinkedHashMap<>();
        dispatchers.forEach((name, d) -> map.put(name, d.capacity()));
        return map;
    }

    public WeirSettings settings() {
        return settings;
    }

    /** Read-only database probe for readiness; throws when the database does not answer. */
    public void probe() {
        transactor.inNewTransaction(sql -> {
            JobStore.probe(sql);
            return null;
        });
    }
}
