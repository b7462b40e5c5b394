//! `stats`, `last-run` and `aggregate`: the endpoints, the aggregate date
//! form, the chart, and the last run's hints.

mod chart;
mod date_form;
mod endpoints;
mod last_run;
