//! The panic hook: a panic (a bug) is reported redacted, as the contract
//! words an internal error, with the secrets of the process (`crate::redact`) removed.

use crate::redact::scrub;

/// Install a panic hook whose message goes through `scrub`.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()));
        eprint!("{}", panic_text(info.payload(), at.as_deref()));
    }));
}

/// What the panic hook prints for a panic payload, redacted. Separate from
/// the hook so that tests can check it with a real payload.
pub fn panic_text(payload: &(dyn std::any::Any + Send), at: Option<&str>) -> String {
    let msg = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    };
    scrub(&format!(
        "error: internal error: {msg}{}\nhint: this is a bug in ylemctl; please report it\n",
        at.unwrap_or("")
    ))
}
