package dev.weir.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Set;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Validates Weir's built-in users against the passwords in the configuration ({@code WEIR_VIEWER_PASSWORD},
 * {@code WEIR_SUBMITTER_PASSWORD}, {@code WEIR_ADMIN_PASSWORD}); the groups it answers are the role names.
 */
@ApplicationScoped
public class WeirIdentityStore implements IdentityStore {

    private static final Logger LOG = Logger.getLogger(WeirIdentityStore.class.getName());

    private Users users;

    @PostConstruct
    void readPasswords() {
        Config config = ConfigProvider.getConfig(WeirIdentityStore.class.getClassLoader());
        users = Users.from(key -> config.getOptionalValue(key, String.class));
        if (users.names().isEmpty()) {
            LOG.warning("Weir: no user has a password (WEIR_VIEWER_PASSWORD, WEIR_SUBMITTER_PASSWORD, "
                    + "WEIR_ADMIN_PASSWORD are unset): every /api call will be refused");
        } else {
            LOG.info("Weir: API users " + users.names());
        }
    }

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (!(credential instanceof UsernamePasswordCredential c)) {
            return CredentialValidationResult.NOT_VALIDATED_RESULT;
        }
        return users.authenticate(c.getCaller(), c.getPasswordAsString())
                .map(roles -> new CredentialValidationResult(c.getCaller(), roles))
                .orElse(CredentialValidationResult.INVALID_RESULT);
    }

    /** The groups (role names) of a caller this store validated. */
    @Override
    public Set<String> getCallerGroups(CredentialValidationResult result) {
        return users.roles(result.getCallerPrincipal().getName());
    }
}
