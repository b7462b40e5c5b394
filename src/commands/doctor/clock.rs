//! The clock check: the server's `Date` against this machine's clock.
//! Windows are sent in UTC without a zone, so a clock far off asks for
//! the wrong hours.

use ylem_client::Transport;
use ylem_client::diagnose::clock::{Said, server_clock};

use super::check::{Check, SET_UP};
use crate::context::Context;
use crate::error::Error;
use crate::time;

const NAME: &str = "clock";

/// Over this, a warning; over `FAIL_SECS`, a failure.
const WARN_SECS: i64 = 30;
const FAIL_SECS: i64 = 300;

const HINT: &str = "set this machine's clock by NTP (e.g. 'timedatectl set-ntp true'), or have the service's operators set theirs: windows are sent in UTC without a zone";

const NO_DATE: &str = "keep this machine's clock set by NTP ('timedatectl set-ntp true'); a gateway in between may strip the header: ask its operators to keep it";

pub async fn check(_ctx: &Context, t: &Transport) -> Check {
    let c = match server_clock(t).await {
        Ok(Said::Clock(c)) => c,
        // The service answered: only the skew is unknown, not a failure.
        Ok(Said::NoDate) => {
            return Check::warn(
                NAME,
                "the server sends no Date header: the skew is unknown",
                NO_DATE,
            );
        }
        Ok(Said::Unreadable(d)) => {
            return Check::warn(
                NAME,
                format!("the server's Date header {d:?} does not parse: the skew is unknown"),
                NO_DATE,
            );
        }
        Err(e) => return Check::from_error(NAME, &Error::from(e)),
    };
    let off = c.skew_secs.abs();
    let way = if c.skew_secs > 0 {
        "ahead of"
    } else {
        "behind"
    };
    let said = format!(
        "the server's Date {} is {} {way} this machine's clock",
        c.server.format("%Y-%m-%d %H:%M:%S UTC"),
        time::human_ms(off.saturating_mul(1000))
    );
    if off <= WARN_SECS {
        return Check::ok(
            NAME,
            format!("the server's clock is within {WARN_SECS} s of this machine's ({off} s)"),
        );
    }
    if off <= FAIL_SECS {
        return Check::warn(NAME, format!("{said} (warned over {WARN_SECS} s)"), HINT);
    }
    Check::fail(
        NAME,
        SET_UP,
        format!("{said} (over 5 min: windows would miss runs)"),
        HINT,
    )
}
