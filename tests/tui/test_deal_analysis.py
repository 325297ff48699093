"""The end of a deal offers its analysis (``a``): judged in a worker thread, summed up when ready, listed on ``a``."""

from __future__ import annotations

from tablekit import SIZE, make_app, press, region_text, screen_text, settle, table_test

from cinch import Seat
from cinch.actions import Keep
from cinch.study.analysis import Settings, decision_steps
from cinch.tui import screens
from cinch.tui.screens import AnalysisScreen, DealOverScreen


@table_test
async def test_the_end_of_a_deal_offers_the_analysis_of_the_deal(monkeypatch):
    monkeypatch.setattr(screens, "ANALYSIS_SETTINGS", Settings(worlds=2, widening=1))  # quick: a test of the screen
    app = make_app("official", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(40):
            if isinstance(app.screen, DealOverScreen):
                break
            await press(pilot, "enter")
        over = app.screen
        assert isinstance(over, DealOverScreen) and over.spec is not None
        assert "a: analysis" in " ".join(screen_text(app).split()) and not over.query_one("#analysis").display
        await press(pilot, "a")
        assert over.query_one("#analysis").display and (over.analysing or over.analysis is not None)
        for _ in range(600):  # as a person waits for the line to fill in (at most a minute)
            if over.analysis is not None:
                break
            await pilot.pause(0.1)
        assert over.analysis is not None and not over.analysing
        summary = " ".join(region_text(app, over.query_one("#analysis")).split())
        assert summary.startswith("Analysis: your decisions:") and "Accuracy S (you) " in summary
        judged = over.analysis.judgements
        assert [j.step for j in judged] == decision_steps(over.spec)
        await press(pilot, "a")
        assert isinstance(app.screen, AnalysisScreen)
        body = " ".join(region_text(app, app.screen.query_one("#analysis-body")).split())
        assert judged[0].text(hide_keeps=judged[0].seat != Seat.S) in body
        for j in judged:  # another seat's discard or rob is told without its cards, which stayed hidden
            if isinstance(j.played, Keep) and j.seat != Seat.S:
                assert f"{j.where}, {j.seat}: a discard" in body
        await press(pilot, "escape")
        assert app.screen is over
