//! The server's quirks, each told apart where a caller needs it: what the
//! service says is an entity's last run and whether it checked it
//! (`last_seen`), a refused run start (`refusal`: paused, or another
//! organisation's), and the aggregate date form it reads (`date_form`,
//! learnt once and handed to a callback). Declares and re-exports only.

pub mod date_form;
pub mod last_seen;
pub mod refusal;

pub use date_form::DateForms;
pub use last_seen::LastSeen;
pub use refusal::NotStarted;
