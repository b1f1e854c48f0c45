package dev.weir.bench;

/**
 * A running Weir server as the scenarios see it: the process, its REST API, the harness's connection to its
 * database, and the drain procedure bound to both.
 *
 * @param mode {@code hard-reserved} or {@code weighted}
 */
record Target(String mode, WeirServer server, WeirApi api, BenchDb db, Backlog backlog) {
}
