//! The form of the aggregate `date_from` the server reads, learnt once per
//! process: the spec's `YYYY-MM-DD`, or `YYYY-MM-DD 00:00:00`, which the
//! open-source server wants (it answers a bare date 400). The first request
//! asks while the others wait, so however many IDs fan out, at most one is
//! answered 400. Keeping what was learnt beyond the process (a profile that
//! remembers it) is the caller's: it says what it knows at the start, and
//! is handed what is learnt (`DateForms::new`).

use std::future::Future;

use tokio::sync::{Mutex, OnceCell};

use crate::api::DateForm;
use crate::error::{Error, Result};

/// Called with the form when it is learnt from the server's answer, before
/// the request is asked again in it.
pub type Learnt<'a> = Box<dyn Fn(DateForm) + Send + Sync + 'a>;

/// What this process knows of the server's aggregate date form.
pub struct DateForms<'a> {
    known: OnceCell<DateForm>,
    /// Held by the one request that asks while the form is unknown.
    asking: Mutex<()>,
    learnt: Learnt<'a>,
}

impl<'a> DateForms<'a> {
    /// `known`: the form, when the caller remembers it from an earlier
    /// process; `learnt` is told the form this process learns from the
    /// server (once at most, and never the one it was told at the start).
    pub fn new(known: Option<DateForm>, learnt: Learnt<'a>) -> Self {
        let cell = OnceCell::new();
        if let Some(form) = known {
            let _ = cell.set(form);
        }
        DateForms {
            known: cell,
            asking: Mutex::new(()),
            learnt,
        }
    }

    /// `ask` in the form the server reads; learnt from this request if no
    /// other has learnt it yet (the others wait for it).
    pub async fn ask<T, F, Fut>(&self, ask: F) -> Result<T>
    where
        F: Fn(DateForm) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        if let Some(form) = self.known.get() {
            return ask(*form).await;
        }
        let guard = self.asking.lock().await;
        if let Some(form) = self.known.get() {
            drop(guard);
            return ask(*form).await;
        }
        match ask(DateForm::Date).await {
            // The open-source server wants a time in `date_from` and says so
            // with a 400 whose body reads `cannot parse "" as "15"`; ask
            // once more in the form it reads.
            Err(e) if wants_date_time(&e) => {
                let _ = self.known.set(DateForm::DateTime);
                drop(guard);
                (self.learnt)(DateForm::DateTime);
                ask(DateForm::DateTime).await
            }
            Ok(v) => {
                let _ = self.known.set(DateForm::Date);
                (self.learnt)(DateForm::Date);
                Ok(v)
            }
            // Nothing learnt (a network error, a 5xx): the next one asks.
            Err(e) => Err(e),
        }
    }
}

/// The server's answer to a bare date where it wants a date and time.
fn wants_date_time(e: &Error) -> bool {
    e.status == Some(400)
        && e.server_body
            .as_deref()
            .is_some_and(|b| b.contains("cannot parse"))
}
