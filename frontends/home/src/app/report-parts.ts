// Home's signed-in parts, in a chunk of their own: a visitor's first load
// (the welcome) never fetches them.
export { DailyReportCard } from '../features/daily-report/components/daily-report-card';
export { ReportView } from '../features/report/components/report-view';
export { StartHere } from '../features/report/components/start-here';
