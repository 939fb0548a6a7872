# Sourced: write_dynamo_plan, the two-manager IOmeter 1.1.0 plan the Dynamo tests and the
# Dynamo screenshot run, and prepare_dynamo_target.

# prepare_dynamo_target DIR MTAB: DIR with a 32 MiB iobw.tst, and MTAB a mount table naming
# DIR alone, so that Dynamo (MNTTAB=MTAB) sees only it; sets fstype to DIR's file system.
prepare_dynamo_target() {
  mkdir "$1" &&
    dd if=/dev/urandom of="$1/iobw.tst" bs=1M count=32 status=none &&
    fstype=$(stat -f -c %T "$1") &&
    printf 'iomark-test %s %s rw 0 0\n' "$1" "$fstype" >"$2"
}

# write_dynamo_plan FILE RUN_SECONDS DYNAMO_TARGET AGENT_TARGET MAX_SECTORS [MANAGERS]: Dynamo
# manager "dyn1" on DYNAMO_TARGET (as Dynamo names it, "PATH [FSTYPE]"), iomark agent "agentA"
# on AGENT_TARGET (MANAGERS, default "dyn1 agentA", may leave either out); 8 KiB 67% read
# random; 1 s ramp-up; queue depth 1, 2, 4.
write_dynamo_plan() {
  local file=$1 run_s=$2 dynamo_target=$3 agent_target=$4 max_sectors=$5 managers=${6:-dyn1 agentA} m target
  {
    printf 'Version 1.1.0 \n'
    printf "'TEST SETUP ====================================================================\n"
    printf "'Test Description\n\tdynamo and agent\n'Run Time\n'\thours      minutes    seconds\n\t0          0          %s\n" "$run_s"
    printf "'Ramp Up Time (s)\n\t1\n'Default Disk Workers to Spawn\n\t1\n'Default Network Workers to Spawn\n\t0\n"
    printf "'Record Results\n\tALL\n'Worker Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
    printf "'Disk Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
    printf "'Queue Depth Cycling\n'\tstart      end        step       step type\n\t1          4          2          EXPONENTIAL\n"
    printf "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n'END test setup\n"
    printf "'ACCESS SPECIFICATIONS =========================================================\n"
    printf "'Access specification name,default assignment\n\t8K 67 read random,NONE\n"
    printf "'size,%% of size,%% reads,%% random,delay,burst,align,reply\n\t8192,100,67,100,0,1,0,0\n"
    printf "'END access specifications\n"
    printf "'MANAGER LIST ==================================================================\n"
    for m in $managers; do
      if [[ $m == dyn1 ]]; then target=$dynamo_target; else target=$agent_target; fi
      printf "'Manager ID, manager name\n\t1,%s\n'Manager network address\n\t\n" "$m"
      printf "'Worker\n\tWorker 1\n'Worker type\n\tDISK\n'Default target settings for worker\n"
      printf "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n\t1,DISABLED,1,DISABLED,0\n"
      printf "'Disk maximum size,starting sector,Data pattern\n\t%s,0,0\n'End default target settings for worker\n" "$max_sectors"
      printf "'Assigned access specs\n\t8K 67 read random\n'End assigned access specs\n"
      printf "'Target assignments\n'Target\n\t%s\n'Target type\n\tDISK\n'End target\n'End target assignments\n'End worker\n'End manager\n" "$target"
    done
    printf "'END manager list\nVersion 1.1.0 \n"
  } >"$file"
}
