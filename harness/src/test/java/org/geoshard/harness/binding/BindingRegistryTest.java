package org.geoshard.harness.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;
import site.ycsb.BasicDB;
import site.ycsb.DB;

class BindingRegistryTest {
  private final BindingRegistry registry = BindingRegistry.fromClassPath();

  @Test
  void harnessRegistersBasicAndNoop() throws ConfigException {
    assertThat(registry.names()).containsEntry("basic", BasicDB.class.getName())
        .containsEntry("noop", NoopDB.class.getName());
    assertThat(registry.resolve("noop")).isEqualTo(new Binding("noop", NoopDB.class));
  }

  @Test
  void acceptsAnyDbClassName() throws ConfigException {
    Binding binding = registry.resolve(BasicDB.class.getName());
    assertThat(binding.type()).isEqualTo(BasicDB.class);
    assertThat(binding.name()).isEqualTo("BasicDB");
  }

  @Test
  void newInstancesGetTheProperties() throws ConfigException {
    Properties p = new Properties();
    p.setProperty("x", "y");
    DB db = registry.resolve("noop").newInstance(p);
    assertThat(db).isInstanceOf(NoopDB.class);
    assertThat(db.getProperties()).isSameAs(p);
  }

  @Test
  void unknownNamesListTheKnownOnes() {
    assertThatThrownBy(() -> registry.resolve("mongo"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Unknown binding 'mongo'")
        .hasMessageContaining("basic")
        .hasMessageContaining("noop");
    assertThatThrownBy(() -> registry.resolve("com.example.Missing"))
        .hasMessageContaining("no such class on the class path");
  }

  @Test
  void refusesClassesThatAreNotBindings() {
    assertThatThrownBy(() -> registry.resolve(String.class.getName()))
        .hasMessage("Binding 'java.lang.String' (java.lang.String) is not a site.ycsb.DB.");
  }

  @Test
  void registeredButMissingClassIsExplained() {
    BindingRegistry broken = new BindingRegistry(new java.util.TreeMap<>(java.util.Map.of("ghost", "org.example.Ghost")),
        getClass().getClassLoader());
    assertThatThrownBy(() -> broken.resolve("ghost"))
        .hasMessage("Binding 'ghost' is registered as org.example.Ghost, but that class is not on the class path.");
  }
}
