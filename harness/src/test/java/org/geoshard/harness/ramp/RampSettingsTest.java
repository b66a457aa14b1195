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
  void theRuleAsTheStudysCodeRanIsANamedOption() throws ConfigException {
    assertThat(RampSettings.fromProperties(props()).rule().kind()).isEqualTo(SlaRule.Kind.STATED);
    assertThat(RampSettings.fromProperties(props("sla.rule", "study-code")).rule().kind())
        .isEqualTo(SlaRule.Kind.STUDY_CODE);
    assertThat(RampSettings.fromProperties(props("sla.rule", "stated")).rule().kind()).isEqualTo(SlaRule.Kind.STATED);
    assertThatThrownBy(() -> RampSettings.fromProperties(props("sla.rule", "paper")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("sla.rule");
  }
}
