package dev.weir.config;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Reads {@link WeirSettings} from MicroProfile Config once, when first used (the runtime does so at start-up, so
 * invalid configuration stops the deployment with {@link InvalidConfigurationException}'s message).
 */
@ApplicationScoped
public class WeirConfiguration {

    private WeirSettings settings;

    @PostConstruct
    void read() {
        Config config = ConfigProvider.getConfig(WeirConfiguration.class.getClassLoader());
        settings = SettingsReader.read(key -> config.getOptionalValue(key, String.class), config.getPropertyNames());
    }

    public WeirSettings settings() {
        return settings;
    }
}
