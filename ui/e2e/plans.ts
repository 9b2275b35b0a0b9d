// Plans more than one end-to-end test runs: a report written, and a workbook with two rows.

export const REPORT_PLAN = `apiVersion: planwright/v1
id: e2e_report
version: 1.0.0
graph:
  - id: save
    block: report.write
    in: {data: {greeting: hello}, format: json, path: out/hello.json}
`;

export const EXCEL_PLAN = `apiVersion: planwright/v1
id: e2e_excel
version: 1.0.0
graph:
  - id: book
    block: excel.write
    in:
      path: out/unpaid.xlsx
      sheets:
        Unpaid:
          - {Invoice: INV-2024-0401, Customer: Yamada Trading, Amount: 132000}
          - {Invoice: INV-2024-0403, Customer: Midori Planning, Amount: 264000}
    out: {summary: summary}
`;
