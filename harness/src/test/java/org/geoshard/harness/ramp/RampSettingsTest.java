package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

/** No search property is a silent no-op, and the warm-up default fits the window it is cut from. */
class RampSettingsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void threadRampPropertiesWithoutAModeImplyTheStudysThreadRamp() throws ConfigException {
    for (String name : new String[] {"ramp.start", "ramp.step", "ramp.interval", "ramp.maxthreads"}) {
      RampSettings s = RampSettings.fromProperties(props(name, "10"));
      assertThat(s.mode()).as(name).isEqualTo(RampMode.THREADS);
      assertThat(s.note()).as(name).contains(name).contains("ramp.mode=threads");
    }
  }

  @Test
  void rateRampPropertiesWithoutAModeImplyTheRateRamp() throws ConfigException {
    RampSettings s = RampSettings.fromProperties(props("ramp.rate.start", "50", "ramp.interval", "10"));
    assertThat(s.mode()).isEqualTo(RampMode.RATE);
    assertThat(s.note()).contains("ramp.rate.start").contains("ramp.mode=rate");
  }

  @Test
  void bothKindsWithoutAModeAreRefusedNamingRampMode() {
    assertThatThrownBy(() -> RampSettings.fromProperties(props("ramp.start", "2", "ramp.rate.start", "50")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Properties ramp.start (a thread ramp) and ramp.rate.start (a rate ramp) are set but 'ramp.mode'"
            + " is not: set ramp.mode=threads or ramp.mode=rate.");
  }

  @Test
  void anExplicitModeIsObeyedAndNamesTheOtherKindsPropertiesItLeavesUnused() throws ConfigException {
    RampSettings threads = RampSettings.fromProperties(props("ramp.mode", "threads", "ramp.rate.start", "50"));
    assertThat(threads.mode()).isEqualTo(RampMode.THREADS);
    assertThat(threads.note()).isEqualTo("ramp.mode=threads: ramp.rate.start not used (only ramp.mode=rate uses it).");
    RampSettings rate = RampSettings.fromProperties(props("ramp.mode", "rate", "ramp.step", "2", "ramp.maxthreads", "9"));
    assertThat(rate.mode()).isEqualTo(RampMode.RATE);
    assertThat(rate.note())
        .isEqualTo("ramp.mode=rate: ramp.step, ramp.maxthreads not used (only ramp.mode=threads uses them).");
  }

  @Test
  void theStepLengthBelongsToBothKinds() throws ConfigException {
    RampSettings rate = RampSettings.fromProperties(props("ramp.mode", "rate", "ramp.interval", "7",
        "ramp.rate.start", "10"));
    assertThat(rate.mode()).isEqualTo(RampMode.RATE);
    assertThat(rate.interval()).hasSeconds(7);
    assertThat(rate.note()).isNull();
    RampSettings threads = RampSettings.fromProperties(props("ramp.mode", "threads", "ramp.step", "3"));
    assertThat(threads.mode()).isEqualTo(RampMode.THREADS);
  }

  @Test
  void anExplicitNoneIsObeyedAndSaysWhatItLeavesUnused() throws ConfigException {
    RampSettings s = RampSettings.fromProperties(props("ramp.mode", "none", "ramp.start", "2"));
    assertThat(s.mode()).isEqualTo(RampMode.NONE);
    assertThat(s.note()).isEqualTo("ramp.mode=none: ramp.start not used; this is a run with a fixed number of threads.");
    assertThat(RampSettings.fromProperties(props()).note()).isNull();
    assertThat(RampSettings.fromProperties(props("ramp.mode", "threads")).note()).isNull();
  }

  @Test
  void theDefaultWarmupIsAtMostHalfAStep() throws ConfigException {
    assertThat(RampSettings.fromProperties(props("ramp.mode", "threads")).warmup()).isEqualTo(Duration.ofSeconds(5));
    assertThat(RampSettings.fromProperties(props("ramp.interval", "5")).warmup()).isEqualTo(Duration.ofSeconds(2));
    assertThat(RampSettings.fromProperties(props("ramp.interval", "3")).warmup()).isEqualTo(Duration.ofSeconds(1));
    assertThat(RampSettings.fromProperties(props("ramp.interval", "1")).warmup()).isEqualTo(Duration.ZERO);
    // Set by the user, it is checked, not adjusted.
    assertThatThrownBy(() -> RampSettings.fromProperties(props("ramp.interval", "3", "stats.warmup", "5")))
        .hasMessageContaining("'stats.warmup' (5 s) must be shorter than 'ramp.interval' (3 s)");
  }

  @Test
  void withoutARampTheWarmupFitsTheRunLength() throws ConfigException {
    assertThat(RampSettings.fromProperties(props(), Duration.ofSeconds(4)).warmup()).isEqualTo(Duration.ofSeconds(2));
    assertThat(RampSettings.fromProperties(props(), Duration.ofSeconds(60)).warmup()).isEqualTo(Duration.ofSeconds(5));
    assertThat(RampSettings.fromProperties(props(), Duration.ZERO).warmup()).isEqualTo(Duration.ofSeconds(5));
    assertThatThrownBy(() -> RampSettings.fromProperties(props("stats.warmup", "10"), Duration.ofSeconds(10)))
        .hasMessage("Property 'stats.warmup' (10 s) must be shorter than 'maxexecutiontime' (10 s): it is cut from the"
            + " start of the run, and nothing would be left of the plateau.");
  }

  @Test
  void errorLinesQuoteOnlyWhatWasGivenAndSayWhatIsTheDefault() throws ConfigException {
    // A refused warm-up is said once; its default (5 s) is not then quoted as if the user had given it.
    assertThatThrownBy(() -> RampSettings.fromProperties(props("stats.warmup", "abc", "ramp.interval", "3")))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
            "Property 'stats.warmup' must be a whole number of at least 0, but is 'abc'."));
    assertThatThrownBy(() -> RampSettings.fromProperties(props("stats.warmup", "-2"), Duration.ofSeconds(3)))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
            "Property 'stats.warmup' must be a whole number of at least 0, but is '-2'."));
    // Nor a refused interval's default (30 s) quoted against a warm-up that was given.
    assertThatThrownBy(() -> RampSettings.fromProperties(props("ramp.interval", "x", "stats.warmup", "40")))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
            "Property 'ramp.interval' must be a whole number of at least 1, but is 'x'."));
    // The warm-up a warning quotes: given, or the default.
    assertThat(RampSettings.fromProperties(props()).warmupQuoted()).isEqualTo("5 s, the default");
    assertThat(RampSettings.fromProperties(props("stats.warmup", "5")).warmupQuoted()).isEqualTo("5 s");
    // A default that takes part in a check is called the default.
    assertThatThrownBy(() -> RampSettings.fromProperties(props("ramp.start", "600")))
        .hasMessage("Property 'ramp.start' (600) must not exceed 'ramp.maxthreads' (500, the default).");
    assertThatThrownBy(() -> RampSettings.fromProperties(props("sla.timeout.ms", "50")))
        .hasMessage("Property 'sla.timeout.ms' (50) must not be below 'sla.latency.ms' (100, the default).");
    assertThatThrownBy(() -> RampSettings.fromProperties(props("stats.warmup", "30", "ramp.mode", "threads")))
        .hasMessage("Property 'stats.warmup' (30 s) must be shorter than 'ramp.interval' (30 s, the default): it is cut"
            + " from the peak step's window.");
  }

  @Test
  void theRuleAsTheStudysCodeRanIsANamedOption() throws ConfigException {
    assertThat(RampSettings.fromProperties(props()).rule().kind()).isEqualTo(SlaRule.Kind.STATED);
    assertThat(RampSettings.fromProperties(props("sla.rule", "study-code")).rule().kind())
        .isEqualTo(SlaRule.Kind.STUDY_CODE);
    assertThat(RampSettings.fromProperties(props("sla.rule", "stated")).rule().kind()).isEqualTo(SlaRule.Kind.STATED);
    assertThatThrownBy(() -> RampSettings.fromProperties(props("sla.rule", "paper")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("sla.rule");
  }
}
