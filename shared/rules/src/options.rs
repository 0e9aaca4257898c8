//! Game options: `key=value` pairs that change a variant's rules, such as `flags=off`.

use std::collections::BTreeMap;
use std::fmt;

use crate::OptionsError;

/// One option a variant offers: its key, the values it takes, and the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key, e.g. `rook-pawn`.
    pub key: &'static str,
    /// Every accepted value, e.g. `["off", "on"]`.
    pub values: &'static [&'static str],
    /// The value when the game does not set it.
    pub default: &'static str,
    /// One line saying what the option does.
    pub description: &'static str,
}

/// A validated set of options for one variant: every offered key has a value (defaults
/// filled in). Printed canonically as `k=v,k=v` in key order, listing only values that
/// differ from the default, so two games with the same rules print the same text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    values: BTreeMap<&'static str, &'static str>,
    defaults: BTreeMap<&'static str, &'static str>,
}

impl Options {
    /// Reads `text` (`k=v,k=v`, spaces allowed around items; empty for none) against the
    /// options a variant offers. Unknown keys, unknown values and repeated keys are errors.
    pub fn parse(text: &str, specs: &[OptionSpec]) -> Result<Options, OptionsError> {
        let mut options = Options::defaults(specs);
        let mut seen = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let error = |reason: String| OptionsError {
                option: item.to_string(),
                reason,
            };
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| error("expected key=value".into()))?;
            let (key, value) = (key.trim(), value.trim());
            let spec = specs.iter().find(|s| s.key == key).ok_or_else(|| {
                let offered: Vec<_> = specs.iter().map(|s| s.key).collect();
                error(if offered.is_empty() {
                    "this variant has no options".into()
                } else {
                    format!("unknown option; offered: {}", offered.join(", "))
                })
            })?;
            let value = spec
                .values
                .iter()
                .find(|v| **v == value)
                .ok_or_else(|| error(format!("expected one of {}", spec.values.join(", "))))?;
            if seen.contains(&spec.key) {
                return Err(error("given twice".into()));
            }
            seen.push(spec.key);
            options.values.insert(spec.key, value);
        }
        Ok(options)
    }

    /// Every offered option at its default value.
    pub fn defaults(specs: &[OptionSpec]) -> Options {
        let defaults: BTreeMap<_, _> = specs.iter().map(|s| (s.key, s.default)).collect();
        Options {
            values: defaults.clone(),
            defaults,
        }
    }

    /// The value of `key`, or `None` when the variant does not offer it.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        self.values.get(key).copied()
    }

    /// True when `key` is set to `on`.
    pub fn is_on(&self, key: &str) -> bool {
        self.get(key) == Some("on")
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changed = self
            .values
            .iter()
            .filter(|(k, v)| self.defaults.get(*k) != Some(*v))
            .map(|(k, v)| format!("{k}={v}"));
        f.write_str(&changed.collect::<Vec<_>>().join(","))
    }
}
