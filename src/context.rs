//! What a command may touch: the resolved settings, the output stream, the
//! voice on stderr (`Ui`), the clock, and the API client built from the
//! credentials.

use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use uuid::Uuid;

use ylem_client::auth::binding::in_clear_off_machine;
use ylem_client::{Client, ClientBuilder, ClientCredentials, TokenSource, Transport};

use crate::cli::{StoreChoice, WindowArgs};
use crate::config::{ConfigFile, aliases};
use crate::credentials::binding::Given;
use crate::credentials::store::StoreKind;
use crate::credentials::{self, token_params};
use crate::error::{Error, Result};
use crate::output::jq::{self, Cut, JqHandle};
use crate::output::{Column, Printer, Shape, Style};
use crate::settings::{EnvCredentials, Settings};
use crate::time::{self, Window};
use crate::ui::Ui;
use ylem_client::Entity;

pub struct Context {
    pub settings: Settings,
    /// Everything said on stderr goes through it.
    pub ui: Ui,
    /// When `--max-time` runs out, counted from when the command began.
    pub deadline: Option<std::time::Instant>,
    /// `config.toml`, read at most once per command, and only when needed
    /// (a stored login, an alias, a remembered setting); `None` without a
    /// config directory.
    config: std::sync::OnceLock<Result<Option<ConfigFile>>>,
    aliases: std::sync::OnceLock<Result<crate::config::aliases::Targets>>,
    /// Shared (`Arc`) so that a printer may own its handle and be moved to
    /// another thread (`logs` decodes on one).
    out: Out,
    /// Runs this command started (kind, ID, run UUID): after Ctrl-C, the
    /// error says how to follow them, as they go on on the server.
    pub started: Arc<std::sync::Mutex<Vec<(ylem_client::RunKind, Uuid, String)>>>,
    /// The aliases the command line gave, with the UUID each names: a
    /// table names those rows by the alias a person typed (`printer`).
    given: Arc<std::sync::Mutex<Vec<(String, String)>>>,
    /// Run starts in flight: a follower whose output goes away ends only
    /// once none is (`run --wait`).
    pub starting: std::sync::atomic::AtomicUsize,
    /// Whether a follower ends when its output goes away yet: `run --wait`
    /// starts its runs first (what was asked), and follows only then.
    pub follows_now: AtomicBool,
    /// The plain-`http` warning was given (once per command).
    warned_in_clear: AtomicBool,
    /// The "-p is not used" warning was given (once per command).
    warned_profile: AtomicBool,
    /// `--jq`'s writer, finished when the command ends.
    jq: Option<JqHandle>,
}

impl Context {
    pub fn new(settings: Settings) -> Self {
        let out: Box<dyn Write + Send> =
            Box::new(BufWriter::with_capacity(64 * 1024, std::io::stdout()));
        let started: Arc<std::sync::Mutex<Vec<_>>> = Arc::default();
        // Under --jq the printers write into the filter, which writes out.
        let (out, jq) = match &settings.jq {
            Some(jq) => {
                let cut = match settings.format {
                    crate::cli::Format::Jsonl => Cut::Each,
                    _ => Cut::Whole,
                };
                let runs = started.clone();
                let went_on = Box::new(move || runs.lock().map(|r| !r.is_empty()).unwrap_or(true));
                let (w, handle) = jq::writer(
                    jq.clone(),
                    cut,
                    out,
                    settings.tty.stdout,
                    went_on,
                    settings.max_time,
                );
                (Box::new(w) as Box<dyn Write + Send>, Some(handle))
            }
            None => (out, None),
        };
        Context {
            ui: settings.ui(),
            deadline: settings.max_time.map(|d| std::time::Instant::now() + d),
            settings,
            config: std::sync::OnceLock::new(),
            aliases: std::sync::OnceLock::new(),
            out: Arc::new(Mutex::new(Some(out))),
            started,
            given: Arc::default(),
            starting: std::sync::atomic::AtomicUsize::new(0),
            follows_now: AtomicBool::new(true),
            warned_in_clear: AtomicBool::new(false),
            warned_profile: AtomicBool::new(false),
            jq,
        }
    }

    /// The command ended with `r`: under `--jq`, filter what is left (the
    /// whole value, or a stream's last line) and write it out. A failure of
    /// the filter is the command's error (it is why the output stopped);
    /// the command's own error stays when the filter did not fail.
    ///
    /// Once a run was started, though, the filter's failure is not the
    /// command's: exit 2 says "nothing was sent", and a script that retries
    /// on it would start a second run. The command keeps its own result
    /// (0, 7, 8 ...) and the filter's error goes to stderr naming the runs
    /// started, also when the command itself failed (it is not dropped).
    pub fn finish_output<T>(&self, r: Result<T>) -> Result<T> {
        let Some(jq) = &self.jq else {
            return r;
        };
        let while_writing = jq.failed();
        let filtered = match while_writing.clone() {
            Some(e) => Err(e),
            None => jq.finish(),
        };
        let Err(e) = filtered else {
            return r;
        };
        let started = self.started.lock().map(|s| s.clone()).unwrap_or_default();
        if started.is_empty() {
            // The filter's failure while the command wrote is why it stopped
            // (its own error is then the writer's); else the command's first.
            return match while_writing {
                Some(e) => Err(e),
                None => r.and(Err(e)),
            };
        }
        let runs: Vec<String> = started
            .iter()
            .map(|(kind, id, run)| format!("{kind} {id} run {run}"))
            .collect();
        let mut said = e.clone();
        said.message = format!(
            "{} (the command ran: started {}; its output could not be filtered)",
            e.message,
            runs.join(", ")
        );
        self.ui.error(&said);
        r
    }

    pub fn style(&self) -> Style {
        let s = &self.settings;
        Style {
            format: s.format,
            header: s.header,
            csv_raw: s.csv_raw,
            zone: s.zone,
            color: s.color,
            tty: s.tty.stdout,
            boxes: s.tty.stdout && !s.dumb,
            width: s.width,
            now: s.now,
            asked: false,
        }
    }

    /// A printer on standard output; checks `--fields` against `columns`.
    /// `multi` (several IDs) shows the leading `uuid` column.
    pub fn printer(
        &self,
        shape: Shape,
        columns: &[Column],
        multi: bool,
    ) -> Result<Printer<'static>> {
        let skip = usize::from(!multi && columns.first().is_some_and(|c| c.name == "uuid"));
        let out = Box::new(SharedOut(self.out.clone()));
        // The columns of --fields are a person's choice: kept whole.
        let style = Style {
            asked: self.settings.fields.is_some(),
            ..self.style()
        };
        let p = Printer::new(
            style,
            shape,
            columns,
            self.settings.fields.as_deref(),
            skip,
            out,
        )?;
        Ok(p.named(self.given.clone()))
    }

    /// `printer` with columns picked by the command (a table's default
    /// view) instead of `--fields`.
    pub fn printer_with_fields(
        &self,
        shape: Shape,
        columns: &[Column],
        multi: bool,
        fields: &[String],
    ) -> Result<Printer<'static>> {
        let skip = usize::from(!multi && columns.first().is_some_and(|c| c.name == "uuid"));
        let out = Box::new(SharedOut(self.out.clone()));
        let p = Printer::new(self.style(), shape, columns, Some(fields), skip, out)?;
        Ok(p.named(self.given.clone()))
    }

    /// Write directly to standard output (completions).
    pub fn write_out(&self, bytes: &[u8]) -> Result<()> {
        let mut o = SharedOut(self.out.clone());
        o.write_all(bytes)?;
        o.flush()?;
        Ok(())
    }

    /// Report an error that does not end the command (one of several IDs),
    /// as text or, with `-o json|jsonl`, as the JSON error object.
    pub fn report(&self, e: &Error) {
        self.ui.error(e);
    }

    /// A note for a person on stderr: not with `-q` or machine output.
    pub fn note(&self, msg: &str) {
        self.ui.note(msg);
    }

    /// The config file, loaded on first use; a corrupt one is an error
    /// naming the file and line, every time it is asked for.
    /// The settle setting runs are judged by: `--settle` (or
    /// `YLEM_SETTLE`), else the profile's `settle`, else none (learned, or
    /// the default). One for every command, so one verdict per run.
    pub fn settle(&self) -> Result<Option<Duration>> {
        if let Some(d) = self.settings.settle {
            return Ok(Some(d));
        }
        // A config file that cannot be read costs no command its settle
        // setting here (its own error shows where the file is needed); a
        // `settle` that is no duration is refused, not passed over.
        match self.config() {
            Ok(Some(c)) => c.settle(&self.settings.profile),
            _ => Ok(None),
        }
    }

    pub fn config(&self) -> Result<Option<&ConfigFile>> {
        let loaded = self.config.get_or_init(|| {
            self.settings
                .config_dir
                .as_deref()
                .map(ConfigFile::load)
                .transpose()
        });
        match loaded {
            Ok(c) => Ok(c.as_ref()),
            Err(e) => Err(e.clone()),
        }
    }

    /// The selected profile and its store, from the config file.
    pub fn profile(&self) -> Result<credentials::profile::Resolved> {
        let s = &self.settings;
        // `auto` leaves the choice to what the profile saved at login.
        let store_override = match s.store_override {
            Some(StoreChoice::Keyring) => Some(StoreKind::Keyring),
            Some(StoreChoice::File) => Some(StoreKind::File),
            Some(StoreChoice::Auto) | None => None,
        };
        let dir = s.config_dir.as_deref();
        credentials::profile::resolve(&s.profile, dir, store_override, self.config()?)
    }

    /// Parse IDs (UUIDs in any case) before anything is sent.
    pub fn resolve_ids(&self, ids: &[String]) -> Result<Vec<Uuid>> {
        ids.iter().map(|s| self.resolve_id(s)).collect()
    }

    /// `resolve_ids` for a command about one kind: an alias set with
    /// another kind is a usage error naming both.
    pub fn resolve_ids_as(&self, kind: Entity, ids: &[String]) -> Result<Vec<Uuid>> {
        ids.iter().map(|s| self.resolve_id_as(kind, s)).collect()
    }

    pub fn resolve_id_as(&self, kind: Entity, s: &str) -> Result<Uuid> {
        match self.alias(s.trim())? {
            Some((Some(k), _)) if k != kind => Err(Error::usage(format!(
                "alias '{}' is a {k}, not a {kind}",
                s.trim()
            ))
            .with_hint(format!(
                "name a {kind}, or use the alias where a {k} fits (e.g. 'ylemctl stats {k} {}')",
                s.trim()
            ))),
            _ => self.resolve_id(s),
        }
    }

    /// The alias `name` with the kind it was set with, if there is one.
    fn alias(&self, name: &str) -> Result<Option<(Option<Entity>, Uuid)>> {
        if aliases::check_alias_name(name).is_err() {
            return Ok(None);
        }
        // Read once per command, and only when an alias is used.
        let all = self.aliases.get_or_init(|| match self.config()? {
            Some(c) => c.alias_targets(&self.settings.profile),
            None => Ok(Default::default()),
        });
        match all {
            Ok(a) => Ok(a.get(name).copied()),
            Err(e) => Err(e.clone()),
        }
    }

    pub fn resolve_id(&self, s: &str) -> Result<Uuid> {
        let t = s.trim();
        if aliases::check_alias_name(t).is_ok() {
            if let Some((_, u)) = self.alias(t)? {
                if let Ok(mut g) = self.given.lock() {
                    g.push((u.to_string(), t.to_string()));
                }
                return Ok(u);
            }
            let names: Vec<&str> = match self.aliases.get() {
                Some(Ok(a)) => a.keys().map(String::as_str).collect(),
                _ => Vec::new(),
            };
            let near = aliases::nearest(t, &names);
            let hint = match near.is_empty() {
                true => "see 'ylemctl alias list'; a UUID looks like 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b".to_string(),
                false => format!("did you mean {}? (see 'ylemctl alias list')", near.join(", ")),
            };
            return Err(Error::usage(format!(
                "invalid ID '{s}': not a UUID, and no alias of that name"
            ))
            .with_hint(hint));
        }
        // Only the hyphenated form: a bare 32-hex string or a URN is more
        // likely a mistake than an ID.
        if let Some(u) = (t.len() == 36).then(|| Uuid::parse_str(t).ok()).flatten() {
            return Ok(u);
        }
        Err(Error::usage(format!(
            "invalid ID '{s}': expected a UUID such as 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b"
        )))
    }

    pub fn window(&self, w: &WindowArgs) -> Result<Window> {
        let s = &self.settings;
        let win = time::resolve_window(
            w.from.as_deref(),
            w.to.as_deref(),
            w.since.as_deref(),
            s.now,
            s.zone,
        )?;
        self.ui.verbose(&format!(
            "window: {} .. {} UTC",
            win.from.format("%Y-%m-%d %H:%M:%S"),
            win.to.format("%Y-%m-%d %H:%M:%S")
        ));
        Ok(win)
    }

    /// The API client, with the credentials in the contract's precedence.
    pub fn api(&self) -> Result<Client> {
        let (transport, source) = self.credentials(Duration::ZERO)?;
        // What never changes (a run's basis) is kept in the cache
        // directory, per server, across commands.
        let kept = self.settings.cache_dir.as_deref().map(|d| {
            std::sync::Arc::new(crate::kept_files::KeptFiles::new(d, transport.base_url()))
        });
        let mut b = ClientBuilder::over(transport)
            .token_source(source)
            .settle(self.settle()?);
        if let Some(k) = kept {
            b = b.store(k);
        }
        Ok(b.build()?)
    }

    /// The token source in the contract's precedence (`YLEM_TOKEN`, then
    /// `YLEM_CLIENT_ID`/`YLEM_CLIENT_SECRET`, then the stored profile) and a
    /// transport to the base URL its tokens are for. `min_ttl`: hand out only
    /// tokens valid at least this long (`auth token`).
    pub fn credentials(&self, min_ttl: Duration) -> Result<(Transport, TokenSource)> {
        let source = match &self.settings.credentials {
            EnvCredentials::Token(t) => TokenSource::Fixed(t.clone()),
            EnvCredentials::Client { id, secret } => TokenSource::Client(Box::new(
                ClientCredentials::new(id.clone(), secret.clone())
                    .with_params(token_params::warned(self.ui)),
            )),
            EnvCredentials::None => {
                let r = self.profile()?;
                let source = r.token_source(min_ttl, self.ui)?;
                // Stored credentials go only to the service they were saved
                // for: another base URL is refused before anything is sent.
                let given = self.settings.base_url.as_deref();
                r.check_service(given, self.base_url_given(), self.config()?)?;
                let t = self.transport_to(r.base_url(given))?;
                return Ok((t, TokenSource::Provider(Arc::new(source))));
            }
        };
        // A profile named for its login would be ignored without a word.
        if self.settings.profile_named && !self.warned_profile.swap(true, Ordering::SeqCst) {
            let which = match &self.settings.credentials {
                EnvCredentials::Token(_) => "YLEM_TOKEN is",
                _ => "YLEM_CLIENT_ID and YLEM_CLIENT_SECRET are",
            };
            self.ui.warn(&format!(
                "{which} set and used: the login of profile '{}' is not (unset {} to use it)",
                self.settings.profile,
                if which.starts_with("YLEM_TOKEN") {
                    "it"
                } else {
                    "them"
                }
            ));
        }
        // Credentials from the environment still use the profile's base URL
        // when none is given (`YLEM_TOKEN=$(ylemctl auth token) ylemctl ...`).
        // Only the config file is read for it, never a credential store.
        let base_url = self
            .settings
            .base_url
            .clone()
            .or_else(|| self.profile().ok().and_then(|r| r.base_url(None)));
        Ok((self.transport_to(base_url)?, source))
    }

    /// Where `--base-url`'s value came from: the flag or `YLEM_BASE_URL`.
    pub fn base_url_given(&self) -> Given {
        if self.settings.base_url_from_env {
            Given::Env
        } else {
            Given::Flag
        }
    }

    /// A transport to `base_url` with the settings' time limit, retries and
    /// request log (`login` checks a client with it before saving anything).
    /// Credentials go with every request, so a plain `http://` URL to
    /// another machine is warned about, once per command.
    pub fn transport_to(&self, base_url: Option<String>) -> Result<Transport> {
        let s = &self.settings;
        let base_url = base_url.ok_or_else(|| {
            Error::auth("no base URL: set --base-url or YLEM_BASE_URL")
                .with_hint("run 'ylemctl login', or try 'ylemctl sandbox' for a local service")
        })?;
        if in_clear_off_machine(&base_url) && !self.warned_in_clear.swap(true, Ordering::SeqCst) {
            self.ui.warn(&format!(
                "{base_url} is plain http:// to another machine: the client secret and tokens travel over the network in clear (use https:// if the service offers it)"
            ));
        }
        // The server sees the same User-Agent as from every ylemctl before.
        let mut b = ClientBuilder::new(base_url);
        if let Some(cap) = crate::config::fault::max_asked_waits() {
            b = b.max_asked_waits(cap);
        }
        let t = b
            .connect_timeout(s.connect_timeout)
            .timeout(s.timeout)
            .deadline(self.deadline)
            .retries(s.retries)
            .user_agent(concat!("ylemctl/", env!("CARGO_PKG_VERSION")))
            .request_log(Arc::new(self.ui))
            // One redactor for the whole process: a token the client
            // fetches is scrubbed from the CLI's own output too (its
            // errors, the panic hook, --jq's messages), not only from the
            // client's.
            .redactor(crate::redact::process().clone())
            .build_transport()?;
        Ok(t)
    }
}

/// Standard output shared by the printers of one command.
type Out = Arc<Mutex<Option<Box<dyn Write + Send>>>>;

struct SharedOut(Out);

impl Write for SharedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut g = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match g.as_mut() {
            Some(w) => w.write(buf),
            None => Ok(buf.len()),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let mut g = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match g.as_mut() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}
