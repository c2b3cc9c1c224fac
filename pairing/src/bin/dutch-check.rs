fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let trf = match banco_pairing::trf::read(&text) {
        Ok(t) => t,
        Err(e) => {
            println!("{path}: {e}");
            return;
        }
    };
    let d = banco_pairing::dutch::recheck(&trf.tournament);
    println!(
        "{path}: {} rounds, {} discrepancies",
        trf.tournament.rounds.len(),
        d.len()
    );
    for x in d.iter().take(3) {
        println!(
            "round {}: recorded {:?}\n paired {:?}",
            x.round, x.recorded, x.paired
        );
    }
}
