// The cron parser cron.ts validates and steps schedules with, loaded on first use (see
// `cronParser` there).
export { CronExpressionParser } from 'cron-parser';
