// The daily report on a schedule (I10, I11): a croner job that, at each
// instant of the cron pattern, computes every supervisor's report over the
// window ending at that instant and stores it. The window ends at the
// scheduled instant, not at the moment the timer fired, so servers sharing a
// database compute the same report and the unique key stores it once. A
// failure is logged and never reaches the server.

import { Cron } from 'croner';
import type { Logger } from 'pino';
import { listInstanceAgents } from '../instance/agents.js';
import type { ReportStore, StoreReader } from '../store/types.js';
import { storeReport } from './persist.js';
import { buildReport } from './report.js';
import type { ReportsSettings } from './settings.js';

export interface SchedulerDeps {
  /** Reads the evidence; writes nothing but reports. */
  readonly store: StoreReader & { readonly reports: ReportStore };
  /** The instance's data folder: where the supervisors and their settings are. */
  readonly data: string;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly newId: () => string;
}

export interface RunSummary {
  readonly scheduledFor: string;
  /** Supervisors whose report this run stored. */
  readonly stored: readonly string[];
  /** Supervisors whose report for this instant was stored already (by another server). */
  readonly existing: readonly string[];
  /** Supervisors whose report could not be made, with why. */
  readonly failed: readonly { readonly supervisor: string; readonly message: string }[];
}

export interface ReportScheduler {
  /** Makes and stores the reports of one instant now (the timer calls this; tests may too). */
  runFor(scheduledFor: number): Promise<RunSummary>;
  /** The next instant the schedule fires; null when it never will. */
  next(): Date | null;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** How far back to look for the instant a timer fired for: timers fire late, never early. */
const LOOKBACK_MS = 60_000;

/**
 * The latest instant of the pattern at or before `now`: the one the timer fired
 * for. Falls back to `now` floored to the second if none lies within a minute
 * (a timer held up that long: the server was not running its loop).
 */
export function scheduledInstant(pattern: Cron, now: number): number {
  let found: number | null = null;
  let probe = pattern.nextRun(new Date(now - LOOKBACK_MS));
  while (probe !== null && probe.getTime() <= now) {
    found = probe.getTime();
    probe = pattern.nextRun(probe);
  }
  return found ?? Math.floor(now / 1000) * 1000;
}

async function supervisorsOf(settings: ReportsSettings, data: string): Promise<string[]> {
  if (settings.supervisors !== undefined) return [...settings.supervisors];
  return (await listInstanceAgents(data)).filter((a) => a.role === 'supervisor').map((a) => a.id);
}

/** One supervisor's report for one instant: stored, there already, or why not. */
async function runOne(
  settings: ReportsSettings,
  deps: SchedulerDeps,
  supervisor: string,
  at: number,
): Promise<'stored' | 'existing' | { message: string }> {
  const scheduledFor = new Date(at).toISOString();
  // Another server may have stored it already: then there is nothing to compute.
  const existing = await deps.store.reports.list({ supervisor, scheduledFor, limit: 1 });
  if (existing.length > 0) return 'existing';
  const built = await buildReport(deps.store, {
    supervisor,
    data: deps.data,
    since: settings.since,
    now: at,
    thresholds: settings.thresholds,
  });
  if (!built.ok) return { message: built.problems.map((p) => p.message).join('; ') };
  const stored = await storeReport(deps.store.reports, built.report, {
    id: `rep-${deps.newId().toLowerCase()}`,
    createdAt: deps.clock(),
    scheduledFor: at,
  });
  return stored === null ? 'existing' : 'stored';
}

export async function runReports(
  settings: ReportsSettings,
  deps: SchedulerDeps,
  at: number,
): Promise<RunSummary> {
  const stored: string[] = [];
  const existing: string[] = [];
  const failed: { supervisor: string; message: string }[] = [];
  let supervisors: string[];
  try {
    supervisors = await supervisorsOf(settings, deps.data);
  } catch (error) {
    deps.logger.error({ err: error }, 'reports: cannot list the supervisors');
    return { scheduledFor: new Date(at).toISOString(), stored, existing, failed };
  }
  for (const supervisor of supervisors) {
    try {
      const outcome = await runOne(settings, deps, supervisor, at);
      if (outcome === 'stored') stored.push(supervisor);
      else if (outcome === 'existing') existing.push(supervisor);
      else {
        failed.push({ supervisor, message: outcome.message });
        deps.logger.warn({ supervisor, problem: outcome.message }, 'report not made');
      }
    } catch (error) {
      // One supervisor's failure (the store not answering, say) leaves the others' reports.
      failed.push({ supervisor, message: (error as Error).message });
      deps.logger.error({ err: error, supervisor }, 'report failed');
    }
  }
  const summary = { scheduledFor: new Date(at).toISOString(), stored, existing, failed };
  deps.logger.info(summary, 'reports made');
  return summary;
}

/** Starts the schedule; null when no schedule is set (reports are off by default). */
export function startReportScheduler(
  settings: ReportsSettings,
  deps: SchedulerDeps,
): ReportScheduler | null {
  if (settings.schedule === undefined) return null;
  const options = settings.timezone === undefined ? {} : { timezone: settings.timezone };
  const pattern = new Cron(settings.schedule, options);
  let running: Promise<unknown> = Promise.resolve();
  const runFor = (at: number): Promise<RunSummary> => {
    const run = runReports(settings, deps, at);
    running = run.catch(() => undefined);
    return run;
  };
  const job = new Cron(
    settings.schedule,
    {
      ...options,
      // A run still going when the next instant comes skips that instant rather than pile up.
      protect: (self) =>
        deps.logger.warn(
          { next: self.nextRun()?.toISOString() },
          'reports: previous run still going',
        ),
      catch: (error) => deps.logger.error({ err: error }, 'reports: run failed'),
      unref: true,
    },
    async () => {
      // croner's timer runs on the real clock, so the instant it fired for is a real one.
      await runFor(scheduledInstant(pattern, Date.now()));
    },
  );
  return {
    runFor,
    next: () => job.nextRun(),
    stop: async () => {
      job.stop();
      pattern.stop();
      await running;
    },
  };
}
