//! No secret under `-vv`: a token the server echoes, on success and on
//! failure, is shown as `***`, the `Authorization` header as `Bearer ***`.

use crate::common;

use common::faultserver::{json, route};
use common::*;

#[test]
fn secrets_never_reach_output_with_vv_on_success_or_failure() {
    for code in [200u16, 500] {
        let s = token_server();
        s.on(route()
            .path_like("*/logs/*")
            .answer(json(code, &format!(r#"{{"echo":"{TOKEN}"}}"#))));
        let o = run_env(
            &["logs", P1, "-vv", "--retries", "0"],
            &client_env(&s.base()),
        );
        assert_ne!(o.code, 0);
        assert_no_secret(&o);
        assert!(o.stderr.contains("Bearer ***"), "{}", o.stderr);
    }
}
