//! Diagnoses that name the cause the tool can know, against the sandbox's
//! knobs in both dialects: a run start refused to a token whose response
//! left out `pipelines:run` (`workflows:run` for workflows) names that
//! scope, not a pause; a 401 to a token issued a moment ago (the plan
//! check) says the plan has the API switched off in every command, as
//! `doctor` does; `doctor` warns on a token granting only `workflows:run`
//! that the service refuses reading.

use serde_json::Value;

use crate::common::sandbox::{Sandbox, start_with};

#[test]
fn a_run_start_refused_for_a_missing_scope_names_the_scope() {
    for dialect in ["spec", "ylem"] {
        let sb = start_with(dialect, &["--scopes", "stats:read"]);
        let p = sb.pipelines[0].0.as_str();
        let o = sb.run(&["run", "pipeline", p]);
        assert_eq!(o.code, 3, "{dialect}: {}", o.stderr);
        assert!(
            o.stderr.contains("the token lacks the pipelines:run scope"),
            "{dialect}: {}",
            o.stderr
        );
        assert!(!o.stderr.contains("paused"), "{dialect}: {}", o.stderr);
        assert!(
            o.stderr.contains("grant the client pipelines:run"),
            "{}",
            o.stderr
        );
        if dialect == "spec" {
            let o = sb.run(&["run", "workflow", &sb.workflows[0]]);
            assert_eq!(o.code, 3, "{}", o.stderr);
            assert!(
                o.stderr.contains("the token lacks the workflows:run scope"),
                "{}",
                o.stderr
            );
        }
        // With the scope granted, a 403 is not blamed on scopes (paused).
        let sb = start_with(dialect, &["--scopes", "stats:read,pipelines:run"]);
        let paused = sb.banner["special_pipelines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["label"] == "paused")
            .map(|p| p["uuid"].as_str().unwrap().to_string())
            .unwrap();
        let o = sb.run(&["run", "pipeline", &paused]);
        assert!(!o.stderr.contains("lacks the"), "{dialect}: {}", o.stderr);
    }
}

#[test]
fn a_fresh_token_refused_is_the_plan_in_every_command() {
    for dialect in ["spec", "ylem"] {
        let sb = start_with(dialect, &["--plan-disabled"]);
        let p = sb.pipelines[0].0.as_str();
        let typed = format!("pipeline:{p}");
        for args in [
            vec!["stats", "pipeline", p],
            vec!["last-run", "pipeline", p],
            vec!["logs", p],
            vec!["status", typed.as_str()],
            vec!["check", "pipeline", p],
            vec!["run", "pipeline", p],
        ] {
            let o = sb.run(&args);
            assert_ne!(o.code, 0, "{dialect} {args:?}");
            let all = o.all();
            assert!(
                all.contains("plan has the API switched off"),
                "{dialect} {args:?}: {all}"
            );
            assert!(!all.contains("were refused"), "{dialect} {args:?}: {all}");
        }
    }
}

#[test]
fn doctor_warns_on_a_token_without_the_scopes_the_commands_need() {
    for dialect in ["spec", "ylem"] {
        let creds = credentials_check(&start_with(dialect, &["--scopes", "workflows:run"]));
        assert_eq!(creds["status"], "warn", "{dialect}: {creds}");
        let d = creds["detail"].as_str().unwrap();
        assert!(
            d.contains("stats:read") && d.contains("pipelines:run"),
            "{d}"
        );
        // The spec's own token (workflows:run, nothing enforced) stays ok.
        let creds = credentials_check(&start_with(dialect, &[]));
        assert_eq!(creds["status"], "ok", "{dialect}: {creds}");
    }
}

/// `doctor -o json`'s credentials check against `sb`.
fn credentials_check(sb: &Sandbox) -> Value {
    let o = sb.run(&["doctor", "-o", "json"]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout));
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "credentials")
        .cloned()
        .unwrap_or_else(|| panic!("no credentials check: {v}"))
}
