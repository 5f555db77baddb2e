// Tree-sitter's own throughput on a grammar, without folio: parse + highlight query over
// code blocks, to tell tree-sitter's cost from folio's (see docs/benchmarks.md).
//
//   cc -O2 -ISources/C/CTreeSitter/include scripts/ts-throughput.c Sources/C/CTreeSitter/TreeSitterRuntime.c \
//       -o /tmp/ts-throughput -ldl
//   python3 -c 'import re,sys; t=open(sys.argv[1]).read(); open(sys.argv[2],"w").write("\0".join(
//       re.findall(r"^```(?:js|mjs|cjs)\n(.*?)^```$", t, re.S|re.M)))' DOC.md /tmp/js-blocks.bin
//   /tmp/ts-throughput .build-grammars/javascript.so tree_sitter_javascript \
//       .build-grammars/javascript.scm /tmp/js-blocks.bin [.build-grammars/tree-sitter-runtime.so]
//
// BLOCKS is the code of the blocks separated by NUL bytes; each is parsed and queried alone,
// as folio does.
#include "CTreeSitter.h"  // the runtime folio loads (its fifth argument, else beside the grammar)
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
int main(int argc,char**argv){
  char rt[4096]; if(argc>5) snprintf(rt,sizeof rt,"%s",argv[5]); else { snprintf(rt,sizeof rt,"%s",argv[1]); char*sl=strrchr(rt,'/'); snprintf(sl?sl+1:rt,sizeof rt-(sl?sl+1-rt:0),"tree-sitter-runtime.so"); }
  const char*why=folio_ts_load(rt); if(why){fprintf(stderr,"%s %s\n",rt,why);return 1;}
  void*h=dlopen(argv[1],RTLD_NOW); const TSLanguage*(*f)(void)=dlsym(h,argv[2]); const TSLanguage*lang=f();
  FILE*qf=fopen(argv[3],"rb"); fseek(qf,0,SEEK_END); long ql=ftell(qf); rewind(qf); char*q=malloc(ql); fread(q,1,ql,qf);
  FILE*df=fopen(argv[4],"rb"); fseek(df,0,SEEK_END); long dl=ftell(df); rewind(df); char*d=malloc(dl+1); fread(d,1,dl,df); d[dl]=0;
  double t0=now(); uint32_t eo; TSQueryError et; TSQuery*query=ts_query_new(lang,q,ql,&eo,&et); double t1=now();
  printf("query compile %.1f ms (%p)\n",(t1-t0)*1e3,(void*)query);
  TSParser*p=ts_parser_new(); ts_parser_set_language(p,lang); TSQueryCursor*c=ts_query_cursor_new();
  double parse=0,qt=0; long caps=0; char*s=d; int n=0;
  while(s<d+dl){ char*e=memchr(s,0,d+dl-s); if(!e)e=d+dl; double a=now();
    TSTree*t=ts_parser_parse_string(p,NULL,s,e-s); double b=now();
    ts_query_cursor_exec(c,query,ts_tree_root_node(t)); TSQueryMatch m; uint32_t ci;
    while(ts_query_cursor_next_capture(c,&m,&ci)) caps++;
    double cc=now(); parse+=b-a; qt+=cc-b; ts_tree_delete(t); s=e+1; n++; }
  printf("%d blocks parse %.2f s  query %.2f s  %ld captures  %.1f MB/s parse\n",n,parse,qt,caps,dl/1e6/parse);
}
