// Workloads, measurement, statistics and CSV (BRIEF §5) live here.
import SchedulerKit
