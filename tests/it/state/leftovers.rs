//! What a crash or a hand leaves: `doctor` names a temp file of ours it
//! finds, `logout` removes every file that holds the secret (temp files
//! included), a secret file cut short is an error naming it (never sent,
//! never saved back), and the mix an older version's killed login left
//! (the config naming one service, the store holding another's secret)
//! is an error saying to log in again.

use std::path::Path;

use super::{any_file_holds, login};
use crate::common::login::ylem_in;
use crate::common::sandbox::start_with;

fn detail(dir: &Path) -> String {
    let o = ylem_in(dir, &["doctor", "-o", "json"], None, &[]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", o.stdout, o.stderr));
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "set-up")
        .map(|c| c.to_string())
        .collect()
}

#[test]
fn doctor_names_a_temp_file_and_logout_removes_every_copy_of_the_secret() {
    let sb = start_with("spec", &[]);
    let d = tempfile::tempdir().unwrap();
    assert_eq!(login(d.path(), &sb, &[]).code, 0);
    // Named with a PID that runs (this test's), so no sweep takes it.
    let pid = std::process::id();
    let creds = d.path().join("credentials");
    let secret_tmp = creds.join(format!(".default.secret.json.{pid}.Ab12.tmp"));
    std::fs::copy(creds.join("default.secret.json"), &secret_tmp).unwrap();
    let config_tmp = d.path().join(format!(".config.toml.{pid}.Cd34.tmp"));
    std::fs::write(&config_tmp, "x").unwrap();
    let said = detail(d.path());
    for p in [&secret_tmp, &config_tmp] {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(said.contains(&name), "doctor names {name}: {said}");
    }
    assert!(said.contains("rm "), "{said}");
    let o = ylem_in(d.path(), &["logout"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        !secret_tmp.exists(),
        "logout left a temp copy of the secret"
    );
    assert_eq!(any_file_holds(d.path(), &sb.secret), None);
}

#[test]
fn a_secret_file_cut_short_is_named_not_sent_nor_saved_back() {
    let sb = start_with("spec", &[]);
    let d = tempfile::tempdir().unwrap();
    assert_eq!(login(d.path(), &sb, &[]).code, 0);
    let creds = d.path().join("credentials");
    let file = creds.join("default.secret.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = &text[..text.len() / 2];
    std::fs::write(&file, cut).unwrap();
    std::fs::remove_file(creds.join("default.token.json")).unwrap();
    let grants = || sb.requests().iter().filter(|r| r.contains("oauth")).count();
    let before = grants();
    let o = ylem_in(d.path(), &["auth", "token"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("damaged"), "{}", o.stderr);
    assert!(o.stderr.contains(&*file.to_string_lossy()), "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl login"), "{}", o.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), cut, "saved back");
    assert_eq!(grants(), before, "a damaged secret was sent");
    assert!(before > 0, "the login's grant is in the request log");
}

#[test]
fn the_mix_an_older_killed_login_left_says_to_log_in_again() {
    let (a, b) = (
        start_with("spec", &["--seed", "1"]),
        start_with("spec", &["--seed", "2"]),
    );
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(login(da.path(), &a, &[]).code, 0);
    assert_eq!(login(db.path(), &b, &[]).code, 0);
    // As an older version left it: B's secret and token, A's config.
    for f in ["default.secret.json", "default.token.json"] {
        std::fs::copy(
            db.path().join("credentials").join(f),
            da.path().join("credentials").join(f),
        )
        .unwrap();
    }
    let o = ylem_in(da.path(), &["auth", "status"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("interrupted login"), "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl login"), "{}", o.stderr);
    let o = ylem_in(da.path(), &["auth", "token"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl login"), "{}", o.stderr);
    assert!(!o.stderr.contains("run the command again"), "{}", o.stderr);
    // The repair: log in again.
    assert_eq!(login(da.path(), &a, &[]).code, 0);
    assert_eq!(ylem_in(da.path(), &["auth", "token"], None, &[]).code, 0);
}
