# board.mk: the iCEBreaker board build (issue 6), not landed yet
.PHONY: bitstream prog
bitstream prog:
	@echo "make $@: the iCEBreaker board build is not implemented yet (issue 6)" >&2; exit 1
