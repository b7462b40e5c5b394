//! Flag values parsed at parse time: clap `value_parser`s that turn the
//! strings of durations, counts, rates, addresses and `check` levels into
//! typed values, so every bad flag is the same usage error naming the flag.
//!
//! Each parser returns a short reason; clap adds the flag and the value
//! ("invalid value 'x' for '--poll <DURATION>': use ...").

use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use ylem_client::{Entity, Period, RunKind};

use crate::time;

const DURATION_HINT: &str = "use a duration such as 90s, 15m, 24h, 7d, 2w";

/// One of the client's names (`Entity::ALL`...), offered as clap's possible
/// values, so that help, man pages, completions and the error for another
/// word list them.
fn one_of<T: FromStr + Clone + Send + Sync + 'static>(
    names: impl IntoIterator<Item = &'static str>,
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(names).map(|s| {
        s.parse::<T>()
            .ok()
            .expect("clap took only the names the client parses")
    })
}

/// `task`, `pipeline` or `workflow`.
pub fn entity() -> impl TypedValueParser<Value = Entity> {
    one_of(Entity::ALL.map(Entity::as_str))
}

/// `pipeline` or `workflow`.
pub fn run_kind() -> impl TypedValueParser<Value = RunKind> {
    one_of(RunKind::ALL.map(RunKind::as_str))
}

/// `day`, `week`, `month`, `quarter` or `year`.
pub fn period() -> impl TypedValueParser<Value = Period> {
    one_of(Period::ALL.map(Period::as_str))
}

/// A duration by the contract's rules (`5y` is not one).
pub fn duration(s: &str) -> Result<Duration, String> {
    time::parse_duration(s).map_err(|_| DURATION_HINT.to_string())
}

/// A duration that must be more than zero (`--timeout`, `--poll`).
pub fn positive_duration(s: &str) -> Result<Duration, String> {
    let d = duration(s)?;
    if d.is_zero() {
        return Err("must be more than 0".into());
    }
    Ok(d)
}

/// At least a second: tokens live in whole seconds (`--token-ttl`), and
/// `check` counts its window in them (`--window`: an empty one would say OK
/// on no runs at all).
pub fn seconds_duration(s: &str) -> Result<Duration, String> {
    let d = duration(s)?;
    if d.as_secs() == 0 {
        return Err("must be at least 1s".into());
    }
    Ok(d)
}

/// `aggregate --count`: a whole number from 1 to 1000.
pub fn count(s: &str) -> Result<u32, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(n as u32),
        _ => Err("must be a whole number from 1 to 1000".into()),
    }
}

/// `--limit`: 1 or more, at most a million (no history is longer; a
/// bigger number is a typo, refused before anything is sent).
pub fn at_least_one(s: &str) -> Result<usize, String> {
    within(s, 1, 1_000_000)
}

/// `--concurrency`: 1 to 256 requests in flight.
pub fn concurrency(s: &str) -> Result<usize, String> {
    within(s, 1, 256)
}

/// `--expect-tasks`: 1 to 100 000 tasks in a run.
pub fn task_count(s: &str) -> Result<usize, String> {
    within(s, 1, 100_000)
}

/// `--retries`: 0 to 100.
pub fn retries(s: &str) -> Result<u32, String> {
    within(s, 0, 100).map(|n| n as u32)
}

/// A whole number from `min` to `max`, the range said when it is not.
fn within(s: &str, min: usize, max: usize) -> Result<usize, String> {
    match s.trim().parse::<u128>() {
        Ok(n) if (min as u128..=max as u128).contains(&n) => Ok(n as usize),
        _ => Err(format!("must be a whole number from {min} to {max}")),
    }
}

/// A share from 0 to 1 (`--fail-rate`).
pub fn rate(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|f| (0.0..=1.0).contains(f))
        .ok_or_else(|| "use a number from 0 to 1".into())
}

/// A duration ahead (`90s`, `+90s`) or behind (`-10m`): the sandbox's
/// `--clock-skew`.
pub fn signed_duration(s: &str) -> Result<chrono::TimeDelta, String> {
    let t = s.trim();
    let (negative, rest) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let hint = || "use a duration such as 90s or -10m".to_string();
    let by = time::parse_duration(rest).map_err(|_| hint())?;
    let by = chrono::TimeDelta::from_std(by).map_err(|_| hint())?;
    Ok(if negative { -by } else { by })
}

/// The scopes a sandbox's tokens may grant, each guarding endpoints.
pub const SANDBOX_SCOPES: [&str; 3] = ["stats:read", "pipelines:run", "workflows:run"];

/// `--scopes`: the scopes a sandbox's tokens grant, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scopes(pub Vec<&'static str>);

/// A comma-separated list of `SANDBOX_SCOPES` (each once; `""` for none).
pub fn scopes(s: &str) -> Result<Scopes, String> {
    let mut list = Vec::new();
    for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(known) = SANDBOX_SCOPES.into_iter().find(|k| *k == name) else {
            return Err(format!(
                "use a comma-separated list of {}",
                SANDBOX_SCOPES.join(", ")
            ));
        };
        if !list.contains(&known) {
            list.push(known);
        }
    }
    Ok(Scopes(list))
}

/// `HOST:PORT` to listen on (`metrics serve --listen`): an IP address as
/// is, or a host name resolved now (`localhost:9339`), its first IPv4
/// address preferred as the default `127.0.0.1:9339` is. Whether the
/// address may be listened on (loopback, or `--allow-remote`) is the
/// command's to say, on the resolved address.
pub fn listen_addr(s: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let s = s.trim();
    if let Ok(a) = s.parse::<SocketAddr>() {
        return Ok(a);
    }
    let hint = "use HOST:PORT, e.g. 127.0.0.1:9339 or localhost:9339";
    match s.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {}
        _ => return Err(hint.into()),
    }
    let all: Vec<SocketAddr> = s
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve the host name: {e}; {hint}"))?
        .collect();
    all.iter()
        .find(|a| a.is_ipv4())
        .or(all.first())
        .copied()
        .ok_or_else(|| format!("the host name has no address; {hint}"))
}

/// A loopback socket address: the sandbox prints its secret and speaks
/// plain HTTP, so it stays on this machine.
pub fn loopback(s: &str) -> Result<SocketAddr, String> {
    let a: SocketAddr = s
        .trim()
        .parse()
        .map_err(|_| "use e.g. 127.0.0.1:7339".to_string())?;
    if !a.ip().is_loopback() {
        return Err("the sandbox only listens on loopback (127.0.0.1 or [::1])".into());
    }
    Ok(a)
}

/// `CRIT` or `WARN,CRIT` of a `check` threshold, in the unit of its flag
/// (seconds or percent).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levels {
    pub warn: Option<f64>,
    pub crit: f64,
}

impl Levels {
    fn parse(s: &str, unit: impl Fn(&str) -> Result<f64, String>) -> Result<Levels, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let levels = match parts.as_slice() {
            [c] => Levels {
                warn: None,
                crit: unit(c)?,
            },
            [w, c] => Levels {
                warn: Some(unit(w)?),
                crit: unit(c)?,
            },
            _ => return Err("use CRIT or WARN,CRIT".into()),
        };
        if levels.warn.is_some_and(|w| w > levels.crit) {
            return Err("the warning level is above the critical one".into());
        }
        Ok(levels)
    }
}

/// Levels of a duration (`--max-age`, `--max-duration`), in seconds.
pub fn duration_levels(s: &str) -> Result<Levels, String> {
    Levels::parse(s, |d| Ok(duration(d)?.as_secs_f64()))
}

/// Levels of a percentage (`--max-failure-rate`).
pub fn percent_levels(s: &str) -> Result<Levels, String> {
    Levels::parse(s, |p| {
        p.trim_end_matches('%')
            .parse::<f64>()
            .ok()
            .filter(|p| (0.0..=100.0).contains(p))
            .ok_or_else(|| "use percentages from 0 to 100".into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_skews_are_signed() {
        assert_eq!(signed_duration("90s"), Ok(chrono::TimeDelta::seconds(90)));
        assert_eq!(signed_duration("+90s"), Ok(chrono::TimeDelta::seconds(90)));
        assert_eq!(signed_duration("-10m"), Ok(chrono::TimeDelta::minutes(-10)));
        assert_eq!(signed_duration("0s"), Ok(chrono::TimeDelta::zero()));
        for bad in ["", "-", "--10m", "10", "ten"] {
            assert!(signed_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scopes_are_known_names_each_once() {
        assert_eq!(scopes("stats:read"), Ok(Scopes(vec!["stats:read"])));
        assert_eq!(
            scopes("stats:read, pipelines:run,stats:read"),
            Ok(Scopes(vec!["stats:read", "pipelines:run"]))
        );
        assert_eq!(scopes(""), Ok(Scopes(vec![])));
        assert!(scopes("stats:write").is_err());
    }

    /// Every name `--scopes` takes is one the sandbox enforces, and the
    /// other way round.
    #[cfg(feature = "sandbox")]
    #[test]
    fn the_sandbox_knows_every_scope() {
        let theirs: Vec<&str> = ylem_sandbox::Scope::ALL.map(|s| s.as_str()).to_vec();
        assert_eq!(theirs, SANDBOX_SCOPES.to_vec());
    }

    #[test]
    fn listen_takes_an_address_or_a_host_name_with_a_port() {
        assert_eq!(
            listen_addr("127.0.0.1:9339").unwrap(),
            "127.0.0.1:9339".parse().unwrap()
        );
        assert_eq!(listen_addr("[::1]:9").unwrap(), "[::1]:9".parse().unwrap());
        let a = listen_addr("localhost:9339").unwrap();
        assert!(a.ip().is_loopback() && a.port() == 9339, "{a}");
        for bad in [
            "localhost",
            "localhost:",
            ":9339",
            "localhost:http",
            "localhost:70000",
        ] {
            assert!(listen_addr(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_keep_the_contract_rules() {
        assert_eq!(duration("1h30m"), Ok(Duration::from_secs(5400)));
        for bad in ["", "5y", "soon", "-1s", "1.5s"] {
            assert!(duration(bad).is_err(), "{bad}");
        }
        assert!(positive_duration("0s").is_err());
        assert!(seconds_duration("500ms").is_err());
        assert_eq!(seconds_duration("2m"), Ok(Duration::from_secs(120)));
    }

    #[test]
    fn counts_rates_and_addresses() {
        assert_eq!(count("7"), Ok(7));
        for bad in ["0", "-1", "x", "1.5", "1001", ""] {
            assert!(count(bad).is_err(), "{bad}");
        }
        assert_eq!(rate("0.1"), Ok(0.1));
        assert!(rate("2").is_err() && rate("x").is_err());
        assert!(loopback("127.0.0.1:0").is_ok() && loopback("[::1]:7339").is_ok());
        assert!(loopback("0.0.0.0:0").is_err() && loopback("nowhere").is_err());
        assert!(at_least_one("0").is_err());
    }

    #[test]
    fn levels() {
        let l = duration_levels("25h,49h").unwrap();
        assert_eq!((l.warn, l.crit), (Some(90000.0), 176400.0));
        assert_eq!(percent_levels("10").unwrap().warn, None);
        for bad in ["", "1,2,3", "49h,25h", "x"] {
            assert!(duration_levels(bad).is_err(), "{bad}");
        }
        assert!(percent_levels("120").is_err());
    }
}
