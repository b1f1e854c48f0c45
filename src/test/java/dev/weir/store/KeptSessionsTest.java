package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class KeptSessionsTest {

    private static final long FRESH = 5_000_000;

    /** A session that counts its statements and remembers whether it was closed. */
    private static final class Counted implements Transactor.Session {
        final int number;
        int statements;
        boolean closed;

        Counted(int number) {
            this.number = number;
        }

        @Override
        public <T> T alone(Function<Sql, T> work) {
            if (closed) {
                throw new IllegalStateException("session " + number + " used after it was closed");
            }
            statements++;
            try {
                return work.apply(null);
            } catch (RuntimeException e) {
                closed = true;
                throw e;
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final List<Counted> opened = new ArrayList<>();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private KeptSessions kept(int max) {
        return new KeptSessions(max, FRESH, () -> {
            synchronized (opened) {
                Counted s = new Counted(opened.size());
                opened.add(s);
                return s;
            }
        }, now::get);
    }

    @Test
    void statementsThatFollowCloselyShareOneSession() {
        KeptSessions sessions = kept(2);
        for (int i = 0; i < 5; i++) {
            sessions.alone(sql -> null);
            now.addAndGet(FRESH);
        }
        assertEquals(1, opened.size(), "one session for five statements each " + FRESH + " ns after the last");
        assertEquals(5, opened.get(0).statements);
        assertEquals(1, sessions.kept());
    }

    @Test
    void aSessionQuietForLongerThanFreshIsClosedAndANewOneTaken() {
        KeptSessions sessions = kept(2);
        sessions.alone(sql -> null);
        now.addAndGet(FRESH + 1);
        sessions.alone(sql -> null);
        assertEquals(2, opened.size());
        assertTrue(opened.get(0).closed, "the quiet session was closed, so its connection went back to the pool");
        assertEquals(1, opened.get(1).statements);
    }

    @Test
    void aFailedStatementGivesItsSessionUp() {
        KeptSessions sessions = kept(2);
        sessions.alone(sql -> null);
        IllegalStateException broken = new IllegalStateException("connection reset");
        assertSame(broken, assertThrows(IllegalStateException.class, () -> sessions.alone(sql -> {
            throw broken;
        })));
        assertEquals(0, sessions.kept(), "the failed session is not kept");
        sessions.alone(sql -> null);
        assertEquals(2, opened.size(), "the next statement runs on a new session");
        assertEquals(1, opened.get(1).statements);
    }

    /** Runs {@code n} statements at once, each on a thread of its own, and waits until all have ended. */
    private static void atOnce(KeptSessions sessions, int n) throws Exception {
        CountDownLatch inside = new CountDownLatch(n);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(n);
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                done.add(threads.submit(() -> sessions.alone(sql -> {
                    inside.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                })));
            }
            assertTrue(inside.await(10, TimeUnit.SECONDS), n + " statements ran at once");
            release.countDown();
            for (Future<Object> f : done) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void atMostMaxSessionsAreKept() throws Exception {
        KeptSessions sessions = kept(2);
        atOnce(sessions, 3);
        assertEquals(3, opened.size(), "statements at once each have a session of their own");
        assertEquals(2, sessions.kept());
        assertEquals(1, opened.stream().filter(s -> s.closed).count(), "the third is closed when it ends");
        sessions.alone(sql -> null);
        assertEquals(3, opened.size(), "a kept session ran the next statement");
        assertEquals(4, opened.stream().mapToInt(s -> s.statements).sum());
    }

    @Test
    void whenTheLatestIsStaleEveryKeptSessionIsClosed() throws Exception {
        KeptSessions sessions = kept(2);
        atOnce(sessions, 2);
        assertEquals(2, sessions.kept());
        now.addAndGet(FRESH + 1);
        sessions.alone(sql -> null);
        assertEquals(3, opened.size());
        assertTrue(opened.get(0).closed && opened.get(1).closed, "both stale sessions closed");
        assertEquals(1, sessions.kept());
    }

    @Test
    void closingClosesTheKeptSessionsAndKeepsNoMore() {
        KeptSessions sessions = kept(2);
        sessions.alone(sql -> null);
        sessions.close();
        assertTrue(opened.get(0).closed);
        sessions.alone(sql -> null);
        assertEquals(0, sessions.kept(), "after close a statement's session is closed when it ends");
        assertTrue(opened.get(1).closed);
    }

    @Test
    void nonsenseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeptSessions(0, FRESH, () -> null, now::get));
        assertThrows(IllegalArgumentException.class, () -> new KeptSessions(1, -1, () -> null, now::get));
    }
}
