//! `ylemctl sandbox`: its banner, its help, and every command driven
//! against it end to end.

mod banner;
mod e2e;
mod help;
