//! Serves the fixture sites until Ctrl+C, to try the pages by hand or with the Playwright tools:
//! `cargo run -p planwright-sites --example serve -- [MAIN_PORT [OTHER_PORT]]` (default 8700, 8701).

use planwright_sites::FixtureSites;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut ports = std::env::args().skip(1).map(|arg| {
        arg.parse::<u16>()
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("not a port: {arg}")))
    });
    let main_port = ports.next().transpose()?.unwrap_or(8700);
    let other_port = ports.next().transpose()?.unwrap_or(8701);
    let sites = FixtureSites::start_on(main_port, other_port).await?;
    println!("main origin:  {}", sites.url(""));
    println!("other origin: {}", sites.other_url(""));
    println!("event log:    {}", sites.url("__state"));
    tokio::signal::ctrl_c().await?;
    Ok(())
}
