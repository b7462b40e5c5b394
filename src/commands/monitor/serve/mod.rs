//! `metrics serve`: the exporter, its scrapes, and its web configuration
//! (TLS and basic auth).

pub mod exporter;
pub mod peers;
pub mod scrape_health;
pub mod scrapes;
pub mod web_auth;
pub mod web_config;
pub mod web_serve;
