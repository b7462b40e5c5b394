//! `last-run` against the sandbox: the hint for a run still going names
//! its pipeline and run.

use crate::common::sandbox;

#[test]
fn a_last_run_going_hint_names_its_pipeline_and_run() {
    let s = sandbox::start_with("spec", &["--task-delay", "2s"]);
    let p = s.pipelines[0].0.as_str();
    let started = s.json(&["run", "pipeline", p]);
    let run = started["run_uuid"]
        .as_str()
        .unwrap_or_else(|| panic!("{started}"))
        .to_string();
    // Its first entry comes after a task's delay: looked for a bounded
    // number of times, until the last run is this one, still going.
    let mut seen = None;
    for _ in 0..40 {
        let o = s.run(&["last-run", "pipeline", p, "--fail-on-failure"]);
        if o.code == 8 && o.stderr.contains(&run) {
            seen = Some(o);
            break;
        }
        if s.truth(&run)["finished"] == true {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    let o = seen.expect("the started run seen going by last-run");
    let want = format!("'ylemctl runs {p} --run {run} --wait'");
    assert!(o.stderr.contains(&want), "{}", o.stderr);
    assert!(!o.stderr.contains("PIPELINE --run RUN"), "{}", o.stderr);
}
