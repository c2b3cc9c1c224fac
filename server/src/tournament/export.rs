//! A tournament written out: a FIDE TRF file (Swiss and round robin, as bbpPairings
//! reads it, by banco-pairing's writer), the standings as CSV, the whole view as JSON.

use banco_protocol::{ErrorCode, ErrorMsg, ExportFormat, TournamentView};

use super::record::Record;

/// The file name and text of `record` exported as `format`, at `now_ms`.
pub fn export(
    record: &Record,
    format: ExportFormat,
    now_ms: u64,
) -> Result<(String, String), ErrorMsg> {
    let stem: String = record
        .settings
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let stem = format!("tournament-{}-{}", record.id, stem.trim_matches('-'));
    let name = format!("{stem}.{}", format.extension());
    let text = match format {
        ExportFormat::Trf => {
            if record.arena() {
                return Err(ErrorMsg::new(
                    ErrorCode::BadSettings,
                    "an arena has no rounds to write as a TRF file: export its standings as CSV or JSON",
                ));
            }
            // The rounds played out; the byes asked for the next round to pair are its
            // last column, as bbpPairings reads them to pair it. A round being played
            // is that next round: its boards have no results to write yet.
            let mut history = record.pairing_history();
            let next = if record.round_done() {
                record.next_byes()
            } else {
                history.rounds.pop();
                record
                    .rounds
                    .last()
                    .map(|r| {
                        r.byes
                            .iter()
                            .filter(|(_, kind)| *kind != banco_pairing::ByeKind::PairingAllocated)
                            .map(|&(player, kind)| banco_pairing::Bye { player, kind })
                            .collect()
                    })
                    .unwrap_or_default()
            };
            banco_pairing::trf::write(&record.settings.name, &history, &next).map_err(|e| {
                ErrorMsg::new(
                    ErrorCode::Internal,
                    format!("cannot write the TRF file: {e}"),
                )
            })?
        }
        ExportFormat::Csv => csv(&record.view(now_ms)),
        ExportFormat::Json => serde_json::to_string_pretty(&record.view(now_ms))
            .map_err(|e| ErrorMsg::new(ErrorCode::Internal, format!("cannot write JSON: {e}")))?,
    };
    Ok((name, text))
}

/// Quotes a CSV field when it needs it.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A value in hundredths as a decimal (`12.5`).
fn hundredths(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let v = v.abs();
    if v % 100 == 0 {
        format!("{sign}{}", v / 100)
    } else if v % 10 == 0 {
        format!("{sign}{}.{}", v / 100, (v % 100) / 10)
    } else {
        format!("{sign}{}.{:02}", v / 100, v % 100)
    }
}

/// The standings as CSV: rank, number, name, points, then each tie-break by its code.
pub fn csv(view: &TournamentView) -> String {
    let mut out = String::from("rank,number,name,points");
    for t in &view.tie_breaks {
        out.push(',');
        out.push_str(t.code());
    }
    out.push('\n');
    for line in &view.standings {
        out.push_str(&format!(
            "{},{},{},{}",
            line.rank,
            line.entrant,
            field(view.name_of(line.entrant)),
            hundredths(i64::from(line.points) * 10)
        ));
        for v in &line.tie_breaks {
            out.push(',');
            out.push_str(&hundredths(*v));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::EntrantRecord;
    use banco_protocol::{BoardResult, RoomSettings, TournamentFormat, TournamentSettings};

    #[test]
    fn a_swiss_exports_as_trf_that_reads_back_and_as_csv() {
        let settings = TournamentSettings::new(
            "Club, night",
            TournamentFormat::Swiss { rounds: 2 },
            RoomSettings::default(),
        );
        let mut r = Record::new(4, "Org".into(), settings, 0);
        for (i, name) in ["An", "Binh", "Chi"].iter().enumerate() {
            r.enter(EntrantRecord {
                name: (*name).into(),
                bot: None,
                rating: 1600 - i as u16 * 10,
                account: true,
                joins: 1,
                withdrawn: false,
                removed: false,
            })
            .unwrap();
        }
        r.start(0).unwrap();
        r.pair_next(0).unwrap();
        let (_, trf) = export(&r, ExportFormat::Trf, 0).unwrap();
        let back = banco_pairing::trf::read(&trf).unwrap();
        assert!(
            back.tournament.rounds.is_empty(),
            "round 1 is still being played: not written as absences"
        );
        r.set_result(1, 1, BoardResult::WhiteWins, false).unwrap();
        let (name, trf) = export(&r, ExportFormat::Trf, 0).unwrap();
        assert!(name.ends_with(".trf"));
        let back = banco_pairing::trf::read(&trf).unwrap();
        assert_eq!(back.tournament.rounds, r.pairing_history().rounds);
        let (_, csv) = export(&r, ExportFormat::Csv, 0).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("rank,number,name,points,BH-C1,BH,SB,DE,WIN")
        );
        assert_eq!(lines.count(), 3);
        assert_eq!(hundredths(1250), "12.5");
        assert_eq!(hundredths(-25), "-0.25");
    }
}
