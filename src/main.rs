//! The `ylemctl` binary: run the library and exit with its code.

fn main() -> std::process::ExitCode {
    ylemctl::main_entry()
}
