//! The config file `config.toml` in the config directory: profiles (base URL,
//! client id, credential store) under `[profiles.NAME]`, and aliases
//! (`aliases`). Never a secret. This file only declares the parts and
//! re-exports the file's types, so `crate::config::X` paths stay as they
//! were; the parts import each other by their own paths.

pub mod aliases;
pub mod base_url;
pub mod fault;
mod file;
pub mod read;
pub mod temps;

pub use file::{
    ConfigFile, Profile, check_profile_name, ensure_private_dir, io_error, replace_file,
    write_atomic,
};
