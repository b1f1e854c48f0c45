package dev.weir.admin;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Weir's REST API lives under {@code /api}. */
@ApplicationPath("/api")
public class RestApplication extends Application {
}
