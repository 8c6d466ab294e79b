package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLikelyTypo: the guard fires on slips of the keyboard in names long
// enough to tell, and never on the series agents name on purpose.
func TestLikelyTypo(t *testing.T) {
	cases := []struct {
		want, have string // want is missing, have exists beside it
		typo       bool
	}{
		// Typos: transposed, missing, added or (in long words) replaced
		// letters, case-only and separator-only differences.
		{"repotr.xlsx", "report.xlsx", true},
		{"reprot.xlsx", "report.xlsx", true},
		{"rpeort.xlsx", "report.xlsx", true},
		{"reort.xlsx", "report.xlsx", true},
		{"reportt.xlsx", "report.xlsx", true},
		{"bugdet.xlsx", "budget.xlsx", true},
		{"budgt.xlsx", "budget.xlsx", true},
		{"slaes.xlsx", "sales.xlsx", true},
		{"sals.xlsx", "sales.xlsx", true},
		{"Sales.xlsx", "sales.xlsx", true},
		{"REPORT.xlsx", "report.xlsx", true},
		{"Report_Q1.xlsx", "report_q1.xlsx", true},
		{"invoice.xlsx", "invoices.xlsx", true},
		{"invocies.xlsx", "invoices.xlsx", true},
		{"inventroy.xlsx", "inventory.xlsx", true},
		{"inventory_2024.xlsx", "inventry_2024.xlsx", true},
		{"quartely_report.xlsx", "quarterly_report.xlsx", true},
		{"quarterly_reprot_q3.xlsx", "quarterly_report_q3.xlsx", true},
		{"sales_reoprt.xlsx", "sales_report.xlsx", true},
		{"sales report.xlsx", "sales_report.xlsx", true},
		{"salesreport.xlsx", "sales_report.xlsx", true},
		{"sales-report.xlsx", "sales_report.xlsx", true},
		{"expenses_2025.xlsx", "expneses_2025.xlsx", true},
		{"payroll_march.xlsx", "payrol_march.xlsx", true},
		{"customers.xlsx", "cusotmers.xlsx", true},
		{"forecast.xlsx", "forcast.xlsx", true},
		{"summary.xlsx", "sumary.xlsx", true},
		{"summery.xlsx", "summary.xlsx", true},
		{"employees.xlsx", "employess.xlsx", true},
		{"accounts_receivable.xlsx", "acounts_receivable.xlsx", true},
		{"accounts_recievable.xlsx", "accounts_receivable.xlsx", true},
		{"dashboard.xlsx", "dashbaord.xlsx", true},
		{"headcount.xlsm", "headcount.xlsx", true},
		{"Budget Plan.xlsx", "budget plan.xlsx", true},
		{"oprations.xlsx", "operations.xlsx", true},

		// Not typos: digits differ, short stems, a different word, a
		// word added or removed, one letter of a short word.
		{"report_q2.xlsx", "report_q1.xlsx", false},
		{"report_q4.xlsx", "report_q3.xlsx", false},
		{"sales_2025.xlsx", "sales_2024.xlsx", false},
		{"sales_2024.xlsx", "sales_2023.xlsx", false},
		{"budget_v2.xlsx", "budget_v1.xlsx", false},
		{"model_v10.xlsx", "model_v1.xlsx", false},
		{"report copy (2).xlsx", "report copy (3).xlsx", false},
		{"report (2).xlsx", "report.xlsx", false},
		{"report copy (2).xlsx", "report copy.xlsx", false},
		{"invoice_0042.xlsx", "invoice_0041.xlsx", false},
		{"2024-01-31.xlsx", "2024-01-30.xlsx", false},
		{"week12.xlsx", "week11.xlsx", false},
		{"day1.xlsx", "day2.xlsx", false},
		{"rpt_q12.xlsx", "rpt_q1_2.xlsx", false},
		{"repotr_q2.xlsx", "report_q1.xlsx", false},
		{"c.xlsx", "r.xlsx", false},
		{"ab.xlsx", "ba.xlsx", false},
		{"q1.xlsx", "q2.xlsx", false},
		{"out.xlsx", "our.xlsx", false},
		{"abc.xlsx", "ABC.xlsx", false},
		{"budget_jun.xlsx", "budget_jan.xlsx", false},
		{"plan_b.xlsx", "plan_a.xlsx", false},
		{"report_new.xlsx", "report_old.xlsx", false},
		{"sales_west.xlsx", "sales_east.xlsx", false},
		{"sales_south.xlsx", "sales_north.xlsx", false},
		{"date.xlsx", "data.xlsx", false},
		{"cost.xlsx", "cast.xlsx", false},
		{"report_final.xlsx", "report.xlsx", false},
		{"report.xlsx", "report_final.xlsx", false},
		{"report - Copy.xlsx", "report.xlsx", false},
		{"sales_summary.xlsx", "sales.xlsx", false},
		{"summary_sales.xlsx", "sales_summary.xlsx", false},
		{"pivot_input.xlsx", "pivot_output.xlsx", false},
		{"team_alpha.xlsx", "team_delta.xlsx", false},
		{"costs_actual.xlsx", "costs_budget.xlsx", false},
		{"draft.xlsx", "draft_v2.xlsx", false},
		{"hires.xlsx", "fires.xlsx", false},
		{"report.xlsx", "report.xlsx", false},
	}
	typos, others := 0, 0
	for _, c := range cases {
		t.Run(c.want+"~"+c.have, func(t *testing.T) {
			assert.Equal(t, c.typo, likelyTypo(c.want, c.have))
		})
		if c.typo {
			typos++
		} else {
			others++
		}
	}
	assert.GreaterOrEqual(t, typos, 30)
	assert.GreaterOrEqual(t, others, 30)
}
