package dev.weir.admin;

import dev.weir.json.Jsonp;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/** Who the caller is: {@code {"user", "roles": [...]}}, so that a client (the dashboard) offers only what it may do. */
@Path("me")
@RequestScoped
@RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    @Context
    SecurityContext security;

    @GET
    public JsonObject me() {
        JsonArrayBuilder roles = Jsonp.PROVIDER.createArrayBuilder();
        for (String role : new String[] {Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN}) {
            if (security.isUserInRole(role)) {
                roles.add(role);
            }
        }
        return Jsonp.PROVIDER.createObjectBuilder()
                .add("user", security.getUserPrincipal().getName())
                .add("roles", roles)
                .build();
    }
}
