//! Credential stores for a profile's client secret and token cache: the OS
//! keyring, or files of mode 0600 in a 0700 directory under the config
//! directory. Two items per profile, kept apart so that a corrupt token cache
//! never costs the secret.
//!
//! Keyring calls block (D-Bus on Linux) and a locked or half-started Secret
//! Service can stall them, so they run off the async runtime with a time
//! limit: a command fails with a hint instead of hanging.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::{ensure_private_dir, fault, io_error, read, temps, write_atomic};
use crate::error::{Error, Result};

/// How long a keyring call may take before we give up on it.
pub const KEYRING_LIMIT: Duration = Duration::from_secs(3);
const SERVICE: &str = "ylemctl";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreKind {
    Keyring,
    File,
}

impl StoreKind {
    pub fn name(self) -> &'static str {
        match self {
            StoreKind::Keyring => "keyring",
            StoreKind::File => "file",
        }
    }
    pub fn parse(s: &str) -> Option<StoreKind> {
        match s {
            "keyring" => Some(StoreKind::Keyring),
            "file" => Some(StoreKind::File),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Secret,
    Token,
}

impl Item {
    fn name(self) -> &'static str {
        match self {
            Item::Secret => "secret",
            Item::Token => "token",
        }
    }
}

/// One profile's items in one store.
#[derive(Debug, Clone)]
pub struct Store {
    pub kind: StoreKind,
    config_dir: PathBuf,
    profile: String,
}

impl Store {
    pub fn new(kind: StoreKind, config_dir: &Path, profile: &str) -> Self {
        Store {
            kind,
            config_dir: config_dir.to_path_buf(),
            profile: profile.to_string(),
        }
    }

    /// The directory of the file store.
    pub fn files_dir(config_dir: &Path) -> PathBuf {
        config_dir.join("credentials")
    }

    /// Where the item lives, for `auth status` (never its value).
    pub fn location(&self) -> String {
        match self.kind {
            StoreKind::File => Self::files_dir(&self.config_dir).display().to_string(),
            StoreKind::Keyring => format!("OS keyring, service '{SERVICE}'"),
        }
    }

    fn file(&self, item: Item) -> PathBuf {
        Self::files_dir(&self.config_dir).join(format!("{}.{}.json", self.profile, item.name()))
    }

    /// The keyring user name: the config directory is part of it, so two
    /// config directories (tests, several set-ups) never share entries.
    fn user(&self, item: Item) -> String {
        format!(
            "{}:{}@{}",
            self.profile,
            item.name(),
            self.config_dir.display()
        )
    }

    pub async fn get(&self, item: Item) -> Result<Option<String>> {
        match self.kind {
            // Bytes that are not UTF-8 are a corrupt item, not an I/O
            // failure: a garbled token cache then means a fresh token.
            // A regular file within a bound (`config::read`): a credential
            // file linked to a device or a FIFO is refused, not read forever.
            StoreKind::File => Ok(
                read::bounded(&self.file(item), "credential file", read::SMALL)?
                    .map(|b| String::from_utf8_lossy(&b).into_owned()),
            ),
            StoreKind::Keyring => {
                let user = self.user(item);
                keyring_call(
                    move || match keyring::Entry::new(SERVICE, &user)?.get_password() {
                        Ok(s) => Ok(Some(s)),
                        Err(keyring::Error::NoEntry) => Ok(None),
                        Err(e) => Err(e),
                    },
                )
                .await
            }
        }
    }

    pub async fn set(&self, item: Item, value: String) -> Result<()> {
        match self.kind {
            StoreKind::File => {
                ensure_private_dir(&Self::files_dir(&self.config_dir))?;
                write_atomic(&self.file(item), value.as_bytes(), 0o600)
            }
            StoreKind::Keyring => {
                let user = self.user(item);
                keyring_call(move || keyring::Entry::new(SERVICE, &user)?.set_password(&value))
                    .await
            }
        }
    }

    /// Remove the file store's temp files of the item, whoever wrote them
    /// and however new (`logout`: a killed write's may hold the secret).
    pub fn delete_temps(config_dir: &Path, profile: &str, item: Item) -> Result<()> {
        let dir = Self::files_dir(config_dir);
        let target = format!("{profile}.{}.json", item.name());
        for p in temps::ours(&dir, |t| t == target) {
            fs::remove_file(&p).map_err(|e| io_error("cannot remove", &p, e))?;
        }
        Ok(())
    }

    /// The item's file in the file store, for errors that name it.
    pub fn file_of(&self, item: Item) -> PathBuf {
        self.file(item)
    }

    /// Remove the item; a missing one is not an error.
    pub async fn delete(&self, item: Item) -> Result<()> {
        match self.kind {
            StoreKind::File => {
                fault::point();
                let r = match fs::remove_file(self.file(item)) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(io_error("cannot remove", &self.file(item), e))
                    }
                    _ => Ok(()),
                };
                fault::point();
                r
            }
            StoreKind::Keyring => {
                let user = self.user(item);
                keyring_call(move || {
                    match keyring::Entry::new(SERVICE, &user)?.delete_credential() {
                        Err(keyring::Error::NoEntry) => Ok(()),
                        other => other,
                    }
                })
                .await
            }
        }
    }
}

/// Whether the OS keyring can store a value now: write and delete a probe
/// entry. Reading is not enough: a locked Secret Service reads "no entry".
pub async fn probe_keyring() -> Result<()> {
    keyring_call(|| {
        let e = keyring::Entry::new(SERVICE, "probe")?;
        e.set_password("probe")?;
        e.delete_credential()
    })
    .await
}

/// Run a blocking keyring call on the blocking pool, within `KEYRING_LIMIT`.
async fn keyring_call<T: Send + 'static>(
    f: impl FnOnce() -> keyring::Result<T> + Send + 'static,
) -> Result<T> {
    let task = tokio::task::spawn_blocking(f);
    match tokio::time::timeout(KEYRING_LIMIT, task).await {
        Err(_) => Err(Error::auth(format!(
            "the OS keyring did not answer within {} s",
            KEYRING_LIMIT.as_secs()
        ))
        .with_hint(KEYRING_HINT)),
        Ok(Err(e)) => Err(Error::internal(format!("keyring task failed: {e}"))),
        Ok(Ok(r)) => r.map_err(keyring_error),
    }
}

const KEYRING_HINT: &str = "unlock the keyring (log in to a desktop session, or run gnome-keyring-daemon --unlock), or use the file store: --store file or YLEM_CREDENTIAL_STORE=file";

/// Keyring failures are authentication problems (exit 3): the credentials
/// exist but cannot be reached.
fn keyring_error(e: keyring::Error) -> Error {
    let what = match &e {
        keyring::Error::NoDefaultStore => {
            "no OS keyring is reachable (on Linux: no Secret Service on a session bus)".to_string()
        }
        keyring::Error::NoStorageAccess(_) => {
            format!("the OS keyring is locked or refuses access: {e}")
        }
        _ => format!("the OS keyring failed: {e}"),
    };
    Error::auth(what).with_hint(KEYRING_HINT)
}
