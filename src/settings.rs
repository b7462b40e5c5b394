//! Flags + environment -> `Settings`: the one place that reads the
//! environment and decides terminal and colour questions. Pure: the
//! environment comes in as a snapshot, so every rule is unit-tested.

use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::cli::{ColorChoice, Format, GlobalArgs, StoreChoice};
use crate::error::{Error, Result};
use crate::time::Zone;
use crate::ui::Ui;
use ylem_client::Secret;

/// The environment variables the tool reads, read once. The secret ones are
/// `Secret`s from the moment they are read, so a `{:?}` never shows them.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub token: Option<Secret>,
    pub client_id: Option<String>,
    pub client_secret: Option<Secret>,
    pub tz: Option<String>,
    pub no_color: bool,
    /// `CLICOLOR_FORCE` set and not `0`: colour even into a pipe.
    pub clicolor_force: bool,
    /// `TERM=dumb`: a terminal that draws no colour and no boxes.
    pub term_dumb: bool,
    /// `COLUMNS`: the terminal width a person asked for.
    pub columns: Option<usize>,
    /// `YLEM_CONFIG_DIR`, else the platform's config directory for ylemctl.
    pub config_dir: Option<PathBuf>,
    /// Where kept answers live (a pipeline run's basis): `cache` in
    /// `YLEM_CONFIG_DIR` when set, else the platform's cache directory.
    pub cache_dir: Option<PathBuf>,
    /// `YLEM_CREDENTIAL_STORE`: auto, keyring or file.
    pub credential_store: Option<String>,
    /// `CI` is set: never use the OS keyring.
    pub ci: bool,
    /// `YLEM_OUTPUT`, which clap reads itself; kept for the errors of
    /// arguments clap could not parse.
    pub output: Option<String>,
    /// `YLEM_BASE_URL`, which clap reads itself; kept to say where a
    /// refused base URL came from (a stale variable in a shell is the
    /// likely one).
    pub base_url: Option<String>,
    /// `YLEM_DECRYPT_KEY_FILE`: the key that opens encrypted task outputs.
    pub decrypt_key_file: Option<PathBuf>,
    /// The proxy variables set (name, value), which reqwest reads itself;
    /// kept for `doctor` to say which proxy is in effect.
    pub proxy: Vec<(&'static str, String)>,
}

/// The proxy variables reqwest reads, in its order of precedence.
const PROXY_VARS: [&str; 8] = [
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
];

impl Env {
    pub fn from_process() -> Self {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Env {
            token: get("YLEM_TOKEN").map(|t| crate::redact::secret(t.trim())),
            client_id: get("YLEM_CLIENT_ID"),
            client_secret: get("YLEM_CLIENT_SECRET").map(crate::redact::secret),
            tz: get("YLEM_TZ"),
            no_color: get("NO_COLOR").is_some(),
            clicolor_force: get("CLICOLOR_FORCE").is_some_and(|v| v != "0"),
            term_dumb: get("TERM").as_deref() == Some("dumb"),
            columns: get("COLUMNS").and_then(|c| c.trim().parse().ok()),
            config_dir: get("YLEM_CONFIG_DIR").map(PathBuf::from).or_else(|| {
                directories::ProjectDirs::from("", "", "ylemctl")
                    .map(|d| d.config_dir().to_path_buf())
            }),
            cache_dir: get("YLEM_CONFIG_DIR")
                .map(|d| PathBuf::from(d).join("cache"))
                .or_else(|| {
                    directories::ProjectDirs::from("", "", "ylemctl")
                        .map(|d| d.cache_dir().to_path_buf())
                }),
            credential_store: get("YLEM_CREDENTIAL_STORE"),
            ci: get("CI").is_some(),
            output: get("YLEM_OUTPUT"),
            base_url: get("YLEM_BASE_URL"),
            decrypt_key_file: get("YLEM_DECRYPT_KEY_FILE").map(PathBuf::from),
            proxy: PROXY_VARS
                .iter()
                .filter_map(|k| get(k).map(|v| (*k, v)))
                .collect(),
        }
    }
}

/// Whether each standard stream is a terminal.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tty {
    pub stdout: bool,
    pub stderr: bool,
    /// The terminal's width, when stdout is one.
    pub width: Option<usize>,
}

/// Credentials found in the environment, in the contract's precedence.
#[derive(Debug, Clone)]
pub enum EnvCredentials {
    Token(Secret),
    Client { id: String, secret: Secret },
    None,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub profile: String,
    /// A profile was named (`-p` or `YLEM_PROFILE`), not the default.
    pub profile_named: bool,
    pub base_url: Option<String>,
    /// `base_url` is `YLEM_BASE_URL`'s value (not a `--base-url` of its own).
    pub base_url_from_env: bool,
    pub format: Format,
    /// `--jq`, compiled: a bad expression fails `resolve`.
    pub jq: Option<std::sync::Arc<crate::output::jq::Jq>>,
    /// JSON only because `--jq` implies it: errors stay text (as gh's).
    pub jq_implied: bool,
    /// `-o` (or `YLEM_OUTPUT`) was given: `format` is not the default.
    pub format_given: bool,
    pub fields: Option<Vec<String>>,
    /// `--output-file`: where `-o prometheus` writes, atomically.
    pub output_file: Option<PathBuf>,
    pub header: bool,
    /// `--csv-raw`: CSV text cells as sent (no formula guard, no escapes).
    pub csv_raw: bool,
    pub zone: Zone,
    /// `--connect-timeout`: TCP and TLS set-up.
    pub connect_timeout: Duration,
    /// `--timeout`: the longest wait for the server with no progress.
    pub timeout: Duration,
    /// `--max-time`: the whole command, when given.
    pub max_time: Option<Duration>,
    /// `--settle` (or `YLEM_SETTLE`): the settle time every command judges
    /// runs by, when given (else the profile's `settle`: `Context::settle`).
    pub settle: Option<Duration>,
    pub retries: u32,
    pub concurrency: usize,
    pub color: bool,
    pub tty: Tty,
    /// `TERM=dumb`: no box drawing (nor colour, unless forced).
    pub dumb: bool,
    /// Width to fit tables and charts into: `COLUMNS`, the terminal's, or
    /// 80 when neither says (a terminal reporting 0x0 says nothing).
    pub width: usize,
    pub verbose: u8,
    pub quiet: bool,
    pub credentials: EnvCredentials,
    pub now: DateTime<Utc>,
    /// Where `config.toml` and the file store live; `None` when there is no
    /// home directory and no `YLEM_CONFIG_DIR`.
    pub config_dir: Option<PathBuf>,
    /// Where kept answers live (`Env::cache_dir`).
    pub cache_dir: Option<PathBuf>,
    /// `YLEM_CREDENTIAL_STORE`, which overrides the profile's store.
    pub store_override: Option<StoreChoice>,
    pub ci: bool,
    /// `YLEM_DECRYPT_KEY_FILE`, for reading why a run failed.
    pub decrypt_key_file: Option<PathBuf>,
    /// The proxy variables set (`Env::proxy`).
    pub proxy_env: Vec<(&'static str, String)>,
}

/// Check a base URL and drop any trailing `/` (`config::base_url`, where
/// the config file's are checked too).
pub use crate::config::base_url::normalize as normalize_base_url;

/// The zone of naive times and tables: `--local`, else `YLEM_TZ` (`local`,
/// `UTC` or an IANA name), else UTC. A `YLEM_TZ` that names no zone is
/// refused even beside `--local`: a typo must not pass unseen.
fn zone(local: bool, tz: Option<&str>) -> Result<Zone> {
    let named = match tz {
        None => Zone::Utc,
        Some(t) => Zone::from_name(t).ok_or_else(|| {
            Error::usage(format!(
                "invalid YLEM_TZ '{}': use local, UTC or an IANA time zone name such as Europe/Paris",
                ylem_client::text::escape(t)
            ))
        })?,
    };
    Ok(if local { Zone::Local } else { named })
}

impl Settings {
    pub fn resolve(g: &GlobalArgs, env: &Env, tty: Tty, now: DateTime<Utc>) -> Result<Settings> {
        // Both were checked when they were parsed (more than 0).
        // curl's names and meanings; 60 s of silence is aws's read timeout.
        let timeout = g.timeout.unwrap_or(Duration::from_secs(60));
        let concurrency = g.concurrency.unwrap_or(8);
        let base_url = g.base_url.as_deref().map(normalize_base_url).transpose()?;
        let from_env = env.base_url.as_deref().map(normalize_base_url);
        let base_url_from_env =
            base_url.is_some() && matches!(&from_env, Some(Ok(e)) if Some(e) == base_url.as_ref());
        let (format, jq) = jq_format(g)?;
        let color = colour(g.color.unwrap_or(ColorChoice::Auto), env, tty);
        let zone = zone(g.local, env.tz.as_deref())?;
        if g.fields.iter().flatten().any(|x| x.trim().is_empty()) {
            return Err(Error::usage("invalid --fields: empty field name"));
        }
        Ok(Settings {
            profile: g.profile.clone().unwrap_or_else(|| "default".into()),
            profile_named: g.profile.is_some(),
            base_url,
            base_url_from_env,
            format,
            jq,
            jq_implied: g.jq.is_some() && g.output.is_none(),
            format_given: g.output.is_some(),
            fields: g
                .fields
                .clone()
                .map(|v| v.into_iter().map(|s| s.trim().to_string()).collect()),
            output_file: g.output_file.clone(),
            header: !g.no_header,
            csv_raw: g.csv_raw,
            zone,
            connect_timeout: g.connect_timeout.unwrap_or(Duration::from_secs(10)),
            timeout,
            max_time: g.max_time,
            settle: g.settle,
            retries: g.retries.unwrap_or(2),
            concurrency,
            color,
            tty,
            dumb: env.term_dumb,
            width: width(env, tty),
            verbose: g.verbose,
            quiet: g.quiet,
            credentials: env_credentials(env)?,
            now,
            config_dir: env.config_dir.clone(),
            cache_dir: env.cache_dir.clone(),
            store_override: store_choice(env.credential_store.as_deref())?,
            ci: env.ci,
            decrypt_key_file: env.decrypt_key_file.clone(),
            proxy_env: env.proxy.clone(),
        })
    }

    /// The voice on stderr these settings ask for.
    pub fn ui(&self) -> Ui {
        Ui {
            quiet: self.quiet,
            verbose: self.verbose,
            machine: self.machine_output(),
            json_errors: self.json_errors(),
            stderr_tty: self.tty.stderr,
        }
    }

    /// Whether stdout is for a program (`-o json|jsonl|csv`).
    pub fn machine_output(&self) -> bool {
        !matches!(self.format, Format::Table)
    }

    /// Whether errors go to stderr as the JSON error object.
    pub fn json_errors(&self) -> bool {
        errors_as_json(Some(self.format)) && !self.jq_implied
    }

    /// The voice of `--jq`'s limits (said from inside the allocator, which
    /// cannot ask the settings then) follows `json_errors`.
    pub fn tell_jq_limits(&self) {
        crate::output::jq_limits_as_json(self.json_errors());
    }
}

/// The output format and the compiled `--jq`: without `-o` it implies
/// JSON (the command may make it JSON lines, `Conduct::fit_jq`); with a
/// format that is not JSON it is a usage error, as is a bad expression.
fn jq_format(g: &GlobalArgs) -> Result<(Format, Option<std::sync::Arc<crate::output::jq::Jq>>)> {
    let Some(expr) = &g.jq else {
        return Ok((g.output.unwrap_or(Format::Table), None));
    };
    let format = match g.output {
        None | Some(Format::Json) => Format::Json,
        Some(Format::Jsonl) => Format::Jsonl,
        Some(other) => {
            use clap::ValueEnum;
            let name = other.to_possible_value().map(|v| v.get_name().to_string());
            return Err(Error::usage(format!(
                "--jq filters JSON: it takes -o json or -o jsonl, not -o {} (nor YLEM_OUTPUT={0})",
                name.unwrap_or_default()
            ))
            .with_hint("leave -o out: --jq implies -o json"));
        }
    };
    // A parse past a limit is said as JSON when -o json|jsonl is explicit
    // (`json_errors`): it is parsed before the settings are whole.
    crate::output::jq_limits_as_json(g.output.is_some());
    let jq = crate::output::jq::Jq::compile(expr)?;
    Ok((format, Some(std::sync::Arc::new(jq))))
}

/// Whether to colour: `NO_COLOR` wins over everything (no-color.org), then
/// `--color`, then `CLICOLOR_FORCE`, then a terminal that is not dumb.
fn colour(choice: ColorChoice, env: &Env, tty: Tty) -> bool {
    match choice {
        _ if env.no_color => false,
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if env.clicolor_force => true,
        ColorChoice::Auto => tty.stdout && !env.term_dumb,
    }
}

/// `COLUMNS`, else the terminal's width, else 80; zero means unknown.
fn width(env: &Env, tty: Tty) -> usize {
    let known = |w: &Option<usize>| w.filter(|&w| w > 0);
    known(&env.columns)
        .or(known(&tty.width))
        .unwrap_or(80)
        .clamp(20, 1000)
}

/// The one rule for "errors as JSON": with `-o json|jsonl` (or
/// `YLEM_OUTPUT`), also when the rest of the arguments could not be parsed.
pub fn errors_as_json(format: Option<Format>) -> bool {
    matches!(format, Some(Format::Json | Format::Jsonl))
}

/// The output format asked for by arguments that clap could not parse (its
/// error may come before `-o`): the last `-o`/`--output` value before any
/// `--`, else `YLEM_OUTPUT`, as clap would have read them.
pub fn requested_format(args: &[String], env_output: Option<&str>) -> Option<Format> {
    use clap::ValueEnum;
    let parse = |v: &str| Format::from_str(v, false).ok();
    let mut found = None;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        let value = match a.as_str() {
            "--" => break,
            "-o" | "--output" => it.next().map(String::as_str),
            a => a
                .strip_prefix("--output=")
                .or_else(|| a.strip_prefix("-o").filter(|v| !v.is_empty())),
        };
        if let Some(f) = value.and_then(parse) {
            found = Some(f);
        }
    }
    found.or_else(|| env_output.and_then(parse))
}

fn store_choice(v: Option<&str>) -> Result<Option<StoreChoice>> {
    use clap::ValueEnum;
    v.map(|s| {
        StoreChoice::from_str(s.trim(), true).map_err(|_| {
            Error::usage(format!(
                "invalid YLEM_CREDENTIAL_STORE '{s}': use auto, keyring or file"
            ))
        })
    })
    .transpose()
}

fn env_credentials(env: &Env) -> Result<EnvCredentials> {
    if let Some(t) = &env.token {
        return Ok(EnvCredentials::Token(t.clone()));
    }
    match (&env.client_id, &env.client_secret) {
        (Some(id), Some(s)) => Ok(EnvCredentials::Client {
            id: id.trim().to_string(),
            secret: s.clone(),
        }),
        (Some(_), None) => Err(Error::usage(
            "YLEM_CLIENT_ID is set but YLEM_CLIENT_SECRET is not",
        )),
        (None, Some(_)) => {
            // Reading it made it a `Secret`: it is scrubbed from all output.
            Err(Error::usage(
                "YLEM_CLIENT_SECRET is set but YLEM_CLIENT_ID is not",
            ))
        }
        (None, None) => Ok(EnvCredentials::None),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_base_url_with_a_user_or_password_is_refused_without_echoing_it() {
        for url in [
            "http://admin:hunter2@127.0.0.1:8080",
            "https://admin@api.example.com/v1",
            "ftp://admin:hunter2@127.0.0.1",
        ] {
            let e = normalize_base_url(url).unwrap_err();
            assert!(
                !e.message.contains("hunter2") && !e.message.contains("admin"),
                "{}",
                e.message
            );
        }
        assert!(normalize_base_url("http://127.0.0.1:8080/api").is_ok());
    }

    use super::*;

    fn resolve(g: GlobalArgs, env: Env) -> Result<Settings> {
        Settings::resolve(
            &g,
            &env,
            Tty {
                stdout: true,
                stderr: true,
                width: None,
            },
            Utc::now(),
        )
    }

    #[test]
    fn base_urls_lose_trailing_slashes_and_bad_ones_are_usage_errors() {
        assert_eq!(
            normalize_base_url("http://h:1/api//").unwrap(),
            "http://h:1/api"
        );
        for bad in ["h:1", "ftp://h", "http://", "http://h/?a=1"] {
            assert!(normalize_base_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_base_url_knows_whether_it_came_from_the_environment() {
        let g = |u: &str| GlobalArgs {
            base_url: Some(u.into()),
            ..GlobalArgs::default()
        };
        let env = Env {
            base_url: Some("https://b.example.com/".into()),
            ..Env::default()
        };
        // clap hands over YLEM_BASE_URL's value as the flag's.
        assert!(
            resolve(g("https://b.example.com/"), env.clone())
                .unwrap()
                .base_url_from_env
        );
        assert!(
            !resolve(g("https://c.example.com"), env)
                .unwrap()
                .base_url_from_env
        );
        assert!(
            !resolve(g("https://b.example.com"), Env::default())
                .unwrap()
                .base_url_from_env
        );
    }

    #[test]
    fn token_beats_client_credentials() {
        let env = Env {
            token: Some(Secret::new("tok-12345")),
            client_id: Some("id".into()),
            client_secret: Some(Secret::new("sec-12345")),
            ..Env::default()
        };
        assert!(matches!(
            resolve(GlobalArgs::default(), env).unwrap().credentials,
            EnvCredentials::Token(_)
        ));
    }

    #[test]
    fn half_client_credentials_are_an_error() {
        let env = Env {
            client_id: Some("id".into()),
            ..Env::default()
        };
        assert!(resolve(GlobalArgs::default(), env).is_err());
    }

    #[test]
    fn colour_follows_tty_and_no_color() {
        let s = resolve(
            GlobalArgs::default(),
            Env {
                no_color: true,
                ..Env::default()
            },
        )
        .unwrap();
        assert!(!s.color);
        let s = resolve(GlobalArgs::default(), Env::default()).unwrap();
        assert!(s.color);
        let g = GlobalArgs {
            color: Some(ColorChoice::Always),
            ..GlobalArgs::default()
        };
        let with = |g: &GlobalArgs, env: Env| resolve(g.clone(), env).unwrap().color;
        assert!(with(&g, Env::default()));
        let no_color = Env {
            no_color: true,
            ..Env::default()
        };
        assert!(!with(&g, no_color));
        let dumb = Env {
            term_dumb: true,
            ..Env::default()
        };
        assert!(!with(&GlobalArgs::default(), dumb.clone()));
        assert!(resolve(GlobalArgs::default(), dumb).unwrap().dumb);
        let pipe = Settings::resolve(
            &GlobalArgs::default(),
            &Env {
                clicolor_force: true,
                ..Env::default()
            },
            Tty::default(),
            Utc::now(),
        );
        assert!(pipe.unwrap().color);
    }

    #[test]
    fn zero_or_unknown_width_is_80() {
        let tty = |w| Tty {
            stdout: true,
            stderr: true,
            width: w,
        };
        let env = |c| Env {
            columns: c,
            ..Env::default()
        };
        let w = |e, t| {
            Settings::resolve(&GlobalArgs::default(), &e, t, Utc::now())
                .unwrap()
                .width
        };
        assert_eq!(w(env(None), tty(Some(0))), 80);
        assert_eq!(w(env(Some(0)), tty(None)), 80);
        assert_eq!(w(env(Some(0)), tty(Some(132))), 132);
        assert_eq!(w(env(Some(100)), tty(Some(132))), 100);
    }

    #[test]
    fn json_errors_follow_the_arguments_then_ylem_output() {
        let args = |a: &str| -> Vec<String> {
            std::iter::once("ylemctl")
                .chain(a.split_whitespace())
                .map(String::from)
                .collect()
        };
        let f = |a: &str, env| requested_format(&args(a), env);
        assert_eq!(f("stats x --timeout y -o json", None), Some(Format::Json));
        assert_eq!(f("-ojsonl stats", None), Some(Format::Jsonl));
        assert_eq!(f("--output=csv stats", Some("json")), Some(Format::Csv));
        assert_eq!(f("stats x", Some("json")), Some(Format::Json));
        assert_eq!(f("stats -- -o json", None), None);
        assert_eq!(f("stats -o yaml", None), None);
        assert!(errors_as_json(f("stats", Some("jsonl"))));
        assert!(!errors_as_json(f("-o csv", Some("json"))));
    }

    #[test]
    fn defaults() {
        let s = resolve(GlobalArgs::default(), Env::default()).unwrap();
        assert_eq!(s.timeout, Duration::from_secs(60));
        assert_eq!(s.connect_timeout, Duration::from_secs(10));
        assert_eq!(s.max_time, None);
        assert_eq!(s.retries, 2);
        assert_eq!(s.concurrency, 8);
        assert_eq!(s.format, Format::Table);
        assert_eq!(s.profile, "default");
    }

    #[test]
    fn jq_implies_json_takes_json_lines_and_refuses_the_rest() {
        let with = |output: Option<Format>, expr: &str| {
            let g = GlobalArgs {
                output,
                jq: Some(expr.into()),
                ..GlobalArgs::default()
            };
            resolve(g, Env::default())
        };
        let s = with(None, ".a").unwrap();
        assert_eq!(s.format, Format::Json);
        assert!(s.jq.is_some() && !s.json_errors(), "errors stay text");
        let s = with(Some(Format::Json), ".a").unwrap();
        assert!(s.json_errors(), "an explicit -o json: JSON errors");
        assert_eq!(
            with(Some(Format::Jsonl), ".a").unwrap().format,
            Format::Jsonl
        );
        for f in [Format::Table, Format::Csv, Format::Prometheus] {
            let e = with(Some(f), ".a").unwrap_err();
            assert_eq!(e.kind, crate::error::Kind::Usage);
            assert!(e.message.contains("--jq filters JSON"), "{}", e.message);
        }
        let e = with(None, ".a | ").unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::Usage);
        assert!(
            resolve(GlobalArgs::default(), Env::default())
                .unwrap()
                .jq
                .is_none()
        );
    }

    #[test]
    fn ylem_tz_is_local_utc_or_an_iana_name() {
        assert_eq!(zone(false, None).unwrap(), Zone::Utc);
        assert_eq!(zone(false, Some("LOCAL")).unwrap(), Zone::Local);
        assert_eq!(zone(false, Some("utc")).unwrap(), Zone::Utc);
        assert_eq!(
            zone(false, Some("europe/paris")).unwrap(),
            Zone::Named(chrono_tz::Tz::Europe__Paris)
        );
        assert_eq!(zone(true, Some("Asia/Tokyo")).unwrap(), Zone::Local);
        for bad in ["mars", "", "+01:00", "Europe/"] {
            let e = zone(true, Some(bad)).unwrap_err();
            assert!(e.message.contains("YLEM_TZ"), "{}", e.message);
        }
    }
}
