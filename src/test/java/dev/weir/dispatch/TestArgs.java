package dev.weir.dispatch;

/** Arguments of the test job kinds. Public: JSON-B reads records through their public accessors. */
public record TestArgs(int n) {
}
