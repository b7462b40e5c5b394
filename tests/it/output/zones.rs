//! `YLEM_TZ` through the built binary: a name that is no zone exits 2
//! naming the variable with nothing sent; `local`, `UTC` and IANA names (in
//! any case) are taken, and a named zone reads and shows times as `--local`
//! does with the local zone.

use crate::common;
use crate::state::edges::{guarded, recorder};

use common::report::Scenario;
use common::*;

#[test]
fn ylem_tz_takes_local_utc_and_iana_names_and_refuses_the_rest() {
    let mut sc = Scenario::new(
        "ylem-tz",
        "input",
        "YLEM_TZ: a name that is no zone exits 2 naming the variable with nothing sent; Europe/Paris (in any case) reads and shows times in that zone as --local does with the local zone",
    );
    let s = recorder();
    let tmp = tempfile::tempdir().unwrap();
    let window = [
        "--from",
        "2024-01-13 10:00:00",
        "--to",
        "2024-01-13 12:00:00",
    ];
    let mut tried = 0;
    for bad in [
        "mars",
        "Europe/Pariss",
        "+01:00",
        "CET-ish",
        "local time",
        "\u{202e}UTC",
    ] {
        let mut args = vec!["stats", "pipeline", P1];
        args.extend(window);
        let o = guarded(tmp.path(), &s.base(), &args, &[("YLEM_TZ", bad)]);
        tried += 1;
        sc.check(&o);
        assert_eq!(o.code, 2, "{bad}: {}", o.stderr);
        assert!(o.stderr.contains("invalid YLEM_TZ"), "{bad}: {}", o.stderr);
        assert!(!o.stderr.contains('\u{202e}'), "{}", o.stderr);
    }
    assert_eq!(s.seen().len(), 0, "nothing sent for a bad YLEM_TZ");
    sc.cases(tried);

    // Read: 10:00 in Paris in January is 09:00 UTC.
    let paths = |tz: &[(&str, &str)], args: &[&str]| {
        let before = s.seen().len();
        let o = guarded(tmp.path(), &s.base(), args, tz);
        assert_eq!(o.code, 0, "{tz:?}: {}", o.stderr);
        let seen: Vec<String> = s.seen()[before..]
            .iter()
            .filter(|r| !r.path.starts_with("/v1/oauth"))
            .map(|r| r.path.clone())
            .collect();
        (o, seen)
    };
    let mut stats = vec!["stats", "pipeline", P1];
    stats.extend(window);
    for tz in ["Europe/Paris", "europe/paris"] {
        let (_, seen) = paths(&[("YLEM_TZ", tz)], &stats);
        assert!(seen[0].contains("2024-01-13%2009:00:00"), "{tz}: {seen:?}");
    }
    let (_, seen) = paths(&[("YLEM_TZ", "UTC")], &stats);
    assert!(seen[0].contains("2024-01-13%2010:00:00"), "{seen:?}");
    // Show: the last run at 18:36:58 UTC (in `stats`) is 19:36:58 in Paris, as --local
    // shows it where the local zone is Paris.
    let mut args = stats.clone();
    let (o, _) = paths(&[("YLEM_TZ", "Europe/Paris")], &args);
    assert!(o.stdout.contains("2024-01-13 19:36:58"), "{}", o.stdout);
    assert!(o.stdout.contains("Europe/Paris"), "{}", o.stdout);
    args.push("--local");
    let (local, _) = paths(&[("TZ", "Europe/Paris")], &args);
    assert_eq!(
        o.stdout.replace("Europe/Paris", "local"),
        local.stdout,
        "YLEM_TZ=Europe/Paris shows what --local shows in Paris"
    );
    let (o, _) = paths(&[("YLEM_TZ", "utc")], &stats);
    assert!(o.stdout.contains("2024-01-13 18:36:58"), "{}", o.stdout);
    sc.done();
}
